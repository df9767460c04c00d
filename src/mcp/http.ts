import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import { EngramError } from '../core/errors.js';
import type { Engram } from '../engram.js';
import type { HttpEnv } from '../http/app.js';
import { ChangeBatch } from './change-batch.js';
import { EventStreams } from './event-stream.js';
import { createMcpServer } from './server.js';
import { McpSharedState } from './shared-state.js';
import { toolsByName } from './tools/index.js';
import { callTool, type ToolEnv } from './tools/tool.js';
import { urisForChange } from './uris.js';

/**
 * MCP over Streamable HTTP at /mcp, mounted behind the bearer-key middleware (a request
 * without a valid key is answered 401 before it gets here).
 *
 * Session-based, not stateless: resource subscriptions need a session that outlives one
 * request, and the GET stream to deliver notifications/resources/updated on. Sessions live
 * in the database (shared-state.ts), so any engram process on it serves any request of a
 * session: a process that has not seen the session replays the client's stored initialize
 * request into a local server once and keeps it (the hot path stays in memory); the GET
 * stream is served from the shared outbox, resumable on any process with Last-Event-ID.
 * No sticky routing is needed behind a load balancer.
 *
 * A session belongs to the tenant of the key that opened it; a request naming a session
 * of another tenant is answered like an unknown session (404). Replies to POSTs are plain
 * JSON (no SSE framing), which keeps a tool call as cheap as a REST call.
 *
 * DNS-rebinding protection: a request with an Origin header is refused unless the origin is
 * in ENGRAM_ALLOWED_ORIGINS or, when engram listens on a loopback address, names a loopback
 * host; on a loopback bind the Host must name a loopback host too. Any port is accepted on
 * loopback names, since ENGRAM_PORT may be 0.
 */
export interface McpHttpOptions {
  /** Expire a session after this long without requests or an open notification stream. */
  idleMs?: number;
  /** Sessions kept in memory by this process (the least recently used are dropped first). */
  maxSessions?: number;
}

interface Session {
  tenantId: string;
  env: ToolEnv;
  transport: WebStandardStreamableHTTPServerTransport;
  close: () => Promise<void>;
  seen: number;
}

const JSON_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

export function mcpHttpHandler(engram: Engram, opts: McpHttpOptions = {}) {
  const idleMs = opts.idleMs ?? 60 * 60_000;
  const maxSessions = opts.maxSessions ?? 10_000;
  const loopbackOnly = isLoopback(engram.config.host);
  const log = engram.log;
  const shared = new McpSharedState(engram.db);
  const allowedOrigins = new Set(engram.config.allowedOrigins);
  const sessions = new Map<string, Session>();
  const adopting = new Map<string, Promise<Session | undefined>>();

  // seen_at in the database moves at most once a minute per session and process
  const touched = new Map<string, number>();
  const touchEvery = Math.min(60_000, idleMs / 4);
  const touch = (tenantId: string, sessionId: string) => {
    const now = Date.now();
    if (now - (touched.get(sessionId) ?? 0) < touchEvery) return;
    touched.set(sessionId, now);
    shared
      .touchSession(tenantId, sessionId)
      .catch((err: unknown) => log.warn('MCP session touch failed', { err }));
  };
  const streams = new EventStreams(shared, log, touch);
  const closeLocal = (tenantId: string, sessionId: string) => {
    const s = sessions.get(sessionId);
    if (s?.tenantId === tenantId) void s.close();
    streams.end(tenantId, sessionId);
    touched.delete(sessionId);
  };
  const listening = shared
    .listen((m) => {
      if (m.closed) for (const id of m.sessionIds) closeLocal(m.tenantId, id);
      else streams.onChannel(m);
    })
    .catch((err: unknown) => log.warn('MCP notification channel unavailable', { err }));
  const changes = new ChangeBatch((tenantId, uris) => {
    void listening
      .then(() => shared.publish(tenantId, uris))
      .catch((err: unknown) => log.warn('MCP resource notification not written', { err }));
  });
  engram.events.on((change) => changes.add(change.tenantId, urisForChange(change)));
  engram.events.onKb((change) => {
    void listening
      .then(() => shared.publishKb(change))
      .catch((err: unknown) => log.warn('MCP resource notification not written', { err }));
  });

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const s of sessions.values()) if (s.seen < cutoff) void s.close();
      for (const [id, at] of touched) if (at < cutoff) touched.delete(id);
      shared.expire(idleMs).catch((err: unknown) => log.warn('MCP session expiry failed', { err }));
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  const remember = (id: string, s: Session) => {
    if (sessions.size >= maxSessions) {
      let oldest: Session | undefined;
      for (const x of sessions.values()) if (!oldest || x.seen < oldest.seen) oldest = x;
      void oldest?.close();
    }
    sessions.set(id, s);
  };

  /** A local server and transport for a session; `id` given when adopting a stored one. */
  const build = (tenantId: string, keyId: string | undefined, id: string) => {
    const ctx = { tenantId, ...(keyId ? { keyId } : {}) };
    const mcp = createMcpServer(engram, ctx, {
      subscriptions: {
        add: (uri) => shared.subscribe(tenantId, id, uri),
        remove: (uri) => shared.unsubscribe(tenantId, id, uri),
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
    });
    const session: Session = {
      tenantId,
      env: { engram, ctx },
      transport,
      close: () => mcp.close().catch(() => {}),
      seen: Date.now(),
    };
    const previous = mcp.server.onclose;
    mcp.server.onclose = () => {
      previous?.();
      if (sessions.get(id) === session) sessions.delete(id);
    };
    return { mcp, session };
  };

  /** Makes a session opened on another process (or before a restart) local. */
  const adopt = async (tenantId: string, id: string): Promise<Session | undefined> => {
    const stored = await shared.findSession(tenantId, id);
    if (!stored) return undefined;
    const { mcp, session } = build(tenantId, stored.keyId, id);
    await mcp.connect(session.transport);
    const url = 'http://engram.internal/mcp';
    const init = await session.transport.handleRequest(
      new Request(url, { method: 'POST', headers: JSON_HEADERS }),
      { parsedBody: stored.initialize },
    );
    const reply = (await init.json().catch(() => undefined)) as
      | { result?: { protocolVersion?: string } }
      | undefined;
    const version = reply?.result?.protocolVersion;
    if (!init.ok || !version) {
      await session.close();
      throw new EngramError('InternalError', `MCP session ${id} could not be restored`);
    }
    await session.transport.handleRequest(
      new Request(url, {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': version },
      }),
      { parsedBody: { jsonrpc: '2.0', method: 'notifications/initialized' } },
    );
    remember(id, session);
    return session;
  };

  const find = async (tenantId: string, id: string): Promise<Session | undefined> => {
    const s = sessions.get(id);
    if (s) return s.tenantId === tenantId ? s : undefined;
    const k = `${tenantId}\u0000${id}`;
    let p = adopting.get(k);
    if (!p) {
      p = adopt(tenantId, id).finally(() => adopting.delete(k));
      adopting.set(k, p);
    }
    return p;
  };

  /** Whether the session exists and belongs to the tenant (without making it local). */
  const owns = async (tenantId: string, id: string): Promise<boolean> => {
    const known = sessions.get(id);
    return known ? known.tenantId === tenantId : (await shared.findSession(tenantId, id)) !== undefined;
  };

  return async (c: Context<HttpEnv>): Promise<Response> => {
    const req = c.req.raw;
    const bad = rebindingProblem(req, loopbackOnly, allowedOrigins);
    if (bad) return rpcError(403, -32000, bad);
    const principal = c.get('principal');
    if (principal.apiVersion !== 'v2')
      throw new EngramError('Forbidden', 'MCP serves the v2 API: use a v2 key');
    const tenantId = principal.tenantId;

    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId) {
      if (req.method === 'GET') {
        if (!(req.headers.get('accept') ?? '').includes('text/event-stream'))
          return rpcError(406, -32000, 'Not Acceptable: Client must accept text/event-stream');
        if (!(await owns(tenantId, sessionId))) return rpcError(404, -32001, 'Session not found');
        touch(tenantId, sessionId);
        return streams.open(tenantId, sessionId, req.headers.get('last-event-id'));
      }
      if (req.method === 'DELETE') {
        if (!(await owns(tenantId, sessionId))) return rpcError(404, -32001, 'Session not found');
        await shared.deleteSession(tenantId, sessionId);
        closeLocal(tenantId, sessionId);
        return new Response(null, { status: 200 });
      }
      const s = await find(tenantId, sessionId);
      if (!s) return rpcError(404, -32001, 'Session not found');
      s.seen = Date.now();
      touch(tenantId, sessionId);
      const body = await jsonBody(c);
      if (body instanceof Response) return body;
      const fast = await fastToolCall(req, body.parsedBody, sessionId, s);
      if (fast) return fast;
      return s.transport.handleRequest(req, body);
    }
    if (req.method !== 'POST') return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');

    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const id = randomUUID();
    const { mcp, session } = build(tenantId, principal.keyId, id);
    await mcp.connect(session.transport);
    const res = await session.transport.handleRequest(req, body);
    if (session.transport.sessionId !== id || !res.ok) {
      await session.close(); // not an initialize request: nothing to keep
      return res;
    }
    try {
      await shared.saveSession(tenantId, id, { keyId: principal.keyId, initialize: body.parsedBody });
    } catch (err) {
      await session.close();
      throw err;
    }
    remember(id, session);
    touched.set(id, Date.now());
    return res;
  };
}

/**
 * The hot path: a single `tools/call` request on an initialised session is answered here,
 * with the same handler the SDK would run (callTool: validation, engine call, isError on
 * failure), without the SDK transport's per-message machinery, which costs a fixed
 * ~0.3 ms per call (measured with bench:mcp). Anything else (initialize, notifications,
 * batches, resources, prompts, streams, unknown tools) goes through the SDK transport.
 */
async function fastToolCall(
  req: Request,
  body: unknown,
  sessionId: string,
  s: Session,
): Promise<Response | undefined> {
  const msg = body as {
    jsonrpc?: unknown;
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
  };
  if (req.method !== 'POST' || !msg || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  if (msg.jsonrpc !== '2.0' || msg.method !== 'tools/call') return undefined;
  if (typeof msg.id !== 'string' && typeof msg.id !== 'number') return undefined;
  const version = req.headers.get('mcp-protocol-version');
  if (!version || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (!(req.headers.get('accept') ?? '').includes('application/json')) return undefined;
  const tool =
    typeof msg.params?.name === 'string'
      ? toolsByName(s.env.engram.config.mcpTools).get(msg.params.name)
      : undefined;
  if (!tool) return undefined;
  const result = await callTool(tool, s.env, msg.params?.arguments);
  return Response.json({ jsonrpc: '2.0', id: msg.id, result }, { headers: { 'mcp-session-id': sessionId } });
}

/**
 * A POST body read through Hono's fast path and handed to the transport already parsed
 * (the transport's own reader would convert the Node stream to a web stream first). The
 * body limit middleware has already bounded its size.
 */
async function jsonBody(c: Context<HttpEnv>): Promise<{ parsedBody?: unknown } | Response> {
  if (c.req.method !== 'POST') return {};
  try {
    return { parsedBody: JSON.parse(await c.req.text()) as unknown };
  } catch (err) {
    if (err instanceof SyntaxError) return rpcError(400, -32700, 'Parse error: Invalid JSON');
    throw err;
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Why Host or Origin is refused, or undefined when both are acceptable. */
function rebindingProblem(req: Request, loopbackOnly: boolean, allowed: Set<string>): string | undefined {
  const host = req.headers.get('host');
  if (loopbackOnly && (!host || !isLoopback(hostnameOf(`http://${host}`) ?? '')))
    return `Invalid Host header: ${host}`;
  const origin = req.headers.get('origin');
  if (origin === null || allowed.has(origin)) return undefined;
  if (loopbackOnly && isLoopback(hostnameOf(origin) ?? '')) return undefined;
  return `Invalid Origin header: ${origin} (not in ENGRAM_ALLOWED_ORIGINS)`;
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
