import type { Logger } from '../core/log.js';
import type { ChannelMessage, McpSharedState } from './shared-state.js';

/**
 * The GET event stream of a Streamable HTTP session (server-to-client notifications),
 * served from the shared outbox so that it may be opened on any process: each event
 * carries its outbox seq as SSE id, a stream starts with a priming event naming the
 * newest seq, and a client that reconnects (to any process) with Last-Event-ID gets every
 * event after it. New rows are announced by NOTIFY; a slow poll covers a notification
 * lost while the listening connection was down. Delivery is at least once.
 */
const POLL_MS = 10_000;
const KEEPALIVE_MS = 25_000;
/** Tells the client how soon to reconnect after losing the stream. */
const RETRY_MS = 1_000;

interface OpenStream {
  tenantId: string;
  sessionId: string;
  /** The seq the stream started after (the priming id): older rows are not its own. */
  floor: number;
  last: number;
  /** Recently delivered seqs below or at `last` (late commits are re-read). */
  delivered: Set<number>;
  write: (chunk: string) => boolean;
  end: () => void;
  pulling: Promise<void> | undefined;
  again: boolean;
}

export class EventStreams {
  private readonly streams = new Map<string, Set<OpenStream>>();
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly shared: McpSharedState,
    private readonly log: Logger,
    /** Called while a stream is open, so the session does not expire. */
    private readonly keepSession: (tenantId: string, sessionId: string) => void,
  ) {}

  /** Wakes or ends the local streams a channel message names. */
  onChannel(m: ChannelMessage): void {
    for (const id of m.sessionIds)
      for (const s of this.streams.get(key(m.tenantId, id)) ?? []) {
        if (m.closed) s.end();
        else void this.pull(s);
      }
  }

  /** Ends every local stream of a session (closed here). */
  end(tenantId: string, sessionId: string): void {
    for (const s of this.streams.get(key(tenantId, sessionId)) ?? []) s.end();
  }

  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  async open(tenantId: string, sessionId: string, lastEventId: string | null): Promise<Response> {
    const resumeFrom =
      lastEventId !== null && /^\d{1,18}$/.test(lastEventId) ? Number(lastEventId) : undefined;
    const start = resumeFrom ?? (await this.shared.lastSeq(tenantId, sessionId));
    const k = key(tenantId, sessionId);
    let timers: NodeJS.Timeout[] = [];
    let stream: OpenStream | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (ctrl) => {
        let open = true;
        const s: OpenStream = {
          tenantId,
          sessionId,
          floor: start,
          last: start,
          delivered: new Set(),
          write: (chunk) => {
            if (!open) return false;
            try {
              ctrl.enqueue(this.encoder.encode(chunk));
              return true;
            } catch {
              s.end();
              return false;
            }
          },
          end: () => {
            if (!open) return;
            open = false;
            for (const t of timers) clearInterval(t);
            timers = [];
            this.streams.get(k)?.delete(s);
            if (this.streams.get(k)?.size === 0) this.streams.delete(k);
            try {
              ctrl.close();
            } catch {
              // already closed
            }
          },
          pulling: undefined,
          again: false,
        };
        stream = s;
        const set = this.streams.get(k) ?? new Set<OpenStream>();
        this.streams.set(k, set);
        set.add(s);
        s.write(`id: ${start}\nretry: ${RETRY_MS}\ndata: \n\n`);
        timers = [
          setInterval(() => {
            this.keepSession(tenantId, sessionId);
            void this.pull(s);
          }, POLL_MS),
          setInterval(() => s.write(': keep-alive\n\n'), KEEPALIVE_MS),
        ];
        for (const t of timers) t.unref();
      },
      cancel: () => stream?.end(),
    });
    if (resumeFrom !== undefined && stream) void this.pull(stream);
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'mcp-session-id': sessionId,
      },
    });
  }

  /** Delivers the outbox rows the stream has not had yet; one pull at a time per stream. */
  private pull(s: OpenStream): Promise<void> {
    if (s.pulling) {
      s.again = true;
      return s.pulling;
    }
    s.pulling = (async () => {
      do {
        s.again = false;
        try {
          const events = await this.shared.eventsAfter(s.tenantId, s.sessionId, s.last);
          const recent = new Set<number>();
          for (const e of events) {
            recent.add(e.seq);
            if (e.seq <= s.floor || s.delivered.has(e.seq)) continue;
            // a row below `last` committed late: send it, without moving the id back
            s.last = Math.max(s.last, e.seq);
            if (!s.write(`id: ${s.last}\ndata: ${JSON.stringify(e.message)}\n\n`)) return;
          }
          s.delivered = recent;
        } catch (err) {
          this.log.warn('MCP event stream read failed', { err });
        }
      } while (s.again);
    })().finally(() => {
      s.pulling = undefined;
    });
    return s.pulling;
  }
}

const key = (tenantId: string, sessionId: string) => `${tenantId}\u0000${sessionId}`;
