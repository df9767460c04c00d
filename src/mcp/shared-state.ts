import type { Db } from '../core/db.js';
import type { KbChange } from '../engine/events.js';
import { kbChangeScope } from './resources-kb.js';

/**
 * The MCP state every engram process on one database shares, so that any process can serve
 * any request of a Streamable HTTP session: the session itself (its tenant, key and the
 * client's initialize request, replayed by a process that has not seen the session yet),
 * its resource subscriptions, and an outbox of the notifications due to it. A committed
 * change writes one outbox row per subscribed session and URI; the process holding the
 * session's event stream delivers the rows in order and replays them after Last-Event-ID.
 * Every query filters by tenant_id (single-shard when distributed by tenant).
 */
export const MCP_CHANNEL = 'engram_mcp';

/** Outbox rows are kept this long for streams that reconnect with Last-Event-ID. */
export const EVENT_RETENTION_MS = 60 * 60_000;

/**
 * Rows inserted by concurrent writers can commit out of seq order; a stream re-reads rows
 * this recent below its last seq and skips those it delivered already.
 */
export const LATE_COMMIT_MS = 5_000;

export interface StoredSession {
  keyId: string;
  /** The client's initialize request (JSON-RPC message). */
  initialize: unknown;
}

export interface OutboxEvent {
  seq: number;
  message: unknown;
}

/** What a NOTIFY on MCP_CHANNEL says: new events for these sessions, or they closed. */
export interface ChannelMessage {
  tenantId: string;
  sessionIds: string[];
  closed?: boolean;
}

export class McpSharedState {
  constructor(private readonly db: Db) {}

  async saveSession(tenantId: string, sessionId: string, s: StoredSession): Promise<void> {
    await this.db.query(
      `INSERT INTO mcp_sessions (tenant_id, session_id, key_id, initialize) VALUES ($1, $2, $3, $4::jsonb)`,
      [tenantId, sessionId, s.keyId, JSON.stringify(s.initialize)],
    );
  }

  async findSession(tenantId: string, sessionId: string): Promise<StoredSession | undefined> {
    const rows = await this.db.query<{ key_id: string; initialize: unknown }>(
      `SELECT key_id, initialize FROM mcp_sessions WHERE tenant_id = $1 AND session_id = $2`,
      [tenantId, sessionId],
    );
    const r = rows[0];
    return r ? { keyId: r.key_id, initialize: r.initialize } : undefined;
  }

  async touchSession(tenantId: string, sessionId: string): Promise<void> {
    await this.db.query(`UPDATE mcp_sessions SET seen_at = now() WHERE tenant_id = $1 AND session_id = $2`, [
      tenantId,
      sessionId,
    ]);
  }

  /** Deletes the session with its subscriptions and outbox, and tells every process. */
  async deleteSession(tenantId: string, sessionId: string): Promise<void> {
    await this.db.query(`DELETE FROM mcp_sessions WHERE tenant_id = $1 AND session_id = $2`, [
      tenantId,
      sessionId,
    ]);
    await this.notify({ tenantId, sessionIds: [sessionId], closed: true });
  }

  /** Drops sessions idle longer than idleMs and outbox rows past retention. */
  async expire(idleMs: number): Promise<void> {
    await this.db.query(`DELETE FROM mcp_sessions WHERE seen_at < now() - $1 * interval '1 millisecond'`, [
      idleMs,
    ]);
    await this.db.query(`DELETE FROM mcp_events WHERE created_at < now() - $1 * interval '1 millisecond'`, [
      EVENT_RETENTION_MS,
    ]);
  }

  async subscribe(tenantId: string, sessionId: string, uri: string): Promise<void> {
    await this.db.query(
      `INSERT INTO mcp_subscriptions (tenant_id, uri, session_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [tenantId, uri, sessionId],
    );
  }

  async unsubscribe(tenantId: string, sessionId: string, uri: string): Promise<void> {
    await this.db.query(
      `DELETE FROM mcp_subscriptions WHERE tenant_id = $1 AND uri = $2 AND session_id = $3`,
      [tenantId, uri, sessionId],
    );
  }

  /**
   * Writes notifications/resources/updated for every session subscribed to one of the
   * distinct URIs (those committed changes touched, gathered by ChangeBatch), and wakes
   * the processes holding those sessions' streams.
   */
  async publish(tenantId: string, uris: readonly string[]): Promise<void> {
    if (uris.length) await this.publishUris(tenantId, uris, null);
  }

  /** The same for a knowledge-base change: its exact URIs and every URI under its prefix. */
  async publishKb(change: KbChange): Promise<void> {
    const { exact, prefix } = kbChangeScope(change);
    await this.publishUris(change.tenantId, exact, prefix);
  }

  private async publishUris(tenantId: string, uris: readonly string[], prefix: string | null): Promise<void> {
    const rows = await this.db.query<{ session_id: string }>(
      `INSERT INTO mcp_events (tenant_id, session_id, message)
       SELECT tenant_id, session_id,
              jsonb_build_object('jsonrpc', '2.0', 'method', 'notifications/resources/updated',
                                 'params', jsonb_build_object('uri', uri))
       FROM mcp_subscriptions
       WHERE tenant_id = $1 AND (uri IN (SELECT jsonb_array_elements_text($2::jsonb))
         OR ($3::text IS NOT NULL AND left(uri, length($3)) = $3))
       RETURNING session_id`,
      [tenantId, JSON.stringify(uris), prefix],
    );
    if (rows.length)
      await this.notify({
        tenantId,
        sessionIds: [...new Set(rows.map((r) => r.session_id))],
      });
  }

  /** Outbox rows of a session after seq `after`, plus recent ones below it (late commits). */
  async eventsAfter(tenantId: string, sessionId: string, after: number): Promise<OutboxEvent[]> {
    const rows = await this.db.query<{ seq: string | number; message: unknown }>(
      `SELECT seq, message FROM mcp_events
       WHERE tenant_id = $1 AND session_id = $2
         AND (seq > $3 OR created_at > now() - $4 * interval '1 millisecond')
       ORDER BY seq`,
      [tenantId, sessionId, after, LATE_COMMIT_MS],
    );
    return rows.map((r) => ({ seq: Number(r.seq), message: r.message }));
  }

  /** The newest outbox seq of a session (0 when none). */
  async lastSeq(tenantId: string, sessionId: string): Promise<number> {
    const rows = await this.db.query<{ seq: string | number | null }>(
      `SELECT max(seq) AS seq FROM mcp_events WHERE tenant_id = $1 AND session_id = $2`,
      [tenantId, sessionId],
    );
    return Number(rows[0]?.seq ?? 0);
  }

  listen(onMessage: (m: ChannelMessage) => void): Promise<() => Promise<void>> {
    return this.db.listen(MCP_CHANNEL, (payload) => {
      try {
        onMessage(JSON.parse(payload) as ChannelMessage);
      } catch {
        // not ours
      }
    });
  }

  /** NOTIFY payloads are limited to 8000 bytes: large session lists go in several. */
  private async notify(m: ChannelMessage): Promise<void> {
    for (let i = 0; i < m.sessionIds.length; i += 100) {
      const part: ChannelMessage = { ...m, sessionIds: m.sessionIds.slice(i, i + 100) };
      await this.db.query(`SELECT pg_notify($1, $2)`, [MCP_CHANNEL, JSON.stringify(part)]);
    }
  }
}
