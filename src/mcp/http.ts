import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import { EngramError } from '../core/errors.js';
import type { Engram } from '../engram.js';
import type { HttpEnv } from '../http/app.js';
import { createMcpServer } from './server.js';
import { toolsByName } from './tools/index.js';
import { callTool, type ToolEnv } from './tools/tool.js';

/**
 * MCP over Streamable HTTP at /mcp, mounted behind the bearer-key middleware (a request
 * without a valid key is answered 401 before it gets here).
 *
 * Session-based, not stateless: resource subscriptions need a session that outlives one
 * request, and the standalone GET stream to deliver notifications/resources/updated on.
 * A session belongs to the tenant of the key that opened it; a request naming a session
 * of another tenant is answered like an unknown session (404). Replies to POSTs are plain
 * JSON (no SSE framing), which keeps a tool call as cheap as a REST call. Sessions live in
 * this process: behind a load balancer, route by the Mcp-Session-Id header (sticky).
 *
 * DNS-rebinding protection: when engram listens on a loopback address, the Host (and any
 * Origin) must name a loopback host. Any port is accepted, since ENGRAM_PORT may be 0.
 */
export interface McpHttpOptions {
  /** Close a session after this long without requests (open notification streams keep it). */
  idleMs?: number;
  maxSessions?: number;
}

interface Session {
  tenantId: string;
  env: ToolEnv;
  transport: WebStandardStreamableHTTPServerTransport;
  close: () => Promise<void>;
  seen: number;
  streams: number;
}

export function mcpHttpHandler(engram: Engram, opts: McpHttpOptions = {}) {
  const idleMs = opts.idleMs ?? 60 * 60_000;
  const maxSessions = opts.maxSessions ?? 10_000;
  const loopbackOnly = isLoopback(engram.config.host);
  const sessions = new Map<string, Session>();

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const s of sessions.values()) if (s.streams === 0 && s.seen < cutoff) void s.close();
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  const evictOne = (): boolean => {
    let oldest: Session | undefined;
    for (const s of sessions.values()) if (s.streams === 0 && (!oldest || s.seen < oldest.seen)) oldest = s;
    if (oldest) void oldest.close();
    return oldest !== undefined;
  };

  return async (c: Context<HttpEnv>): Promise<Response> => {
    const req = c.req.raw;
    if (loopbackOnly) {
      const bad = rebindingProblem(req);
      if (bad) return rpcError(403, -32000, bad);
    }
    const principal = c.get('principal');
    if (principal.apiVersion !== 'v2')
      throw new EngramError('Forbidden', 'MCP serves the v2 API: use a v2 key');

    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s || s.tenantId !== principal.tenantId) return rpcError(404, -32001, 'Session not found');
      s.seen = Date.now();
      const body = await jsonBody(c);
      if (body instanceof Response) return body;
      const fast = await fastToolCall(req, body.parsedBody, sessionId, s);
      if (fast) return fast;
      const res = await s.transport.handleRequest(req, body);
      return req.method === 'GET' && res.ok && res.body ? trackStream(res, s) : res;
    }
    if (req.method !== 'POST') return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (sessions.size >= maxSessions && !evictOne())
      throw new EngramError('ServiceUnavailable', 'too many MCP sessions; retry later', { retryAfter: 5 });

    const mcp = createMcpServer(engram, { tenantId: principal.tenantId, keyId: principal.keyId });
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        session = {
          tenantId: principal.tenantId,
          env: { engram, ctx: { tenantId: principal.tenantId, keyId: principal.keyId } },
          transport,
          close: () => mcp.close().catch(() => {}),
          seen: Date.now(),
          streams: 0,
        };
        sessions.set(id, session);
      },
    });
    const previous = mcp.server.onclose;
    mcp.server.onclose = () => {
      previous?.();
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    await mcp.connect(transport);
    const res = await transport.handleRequest(req, body);
    if (!session) await mcp.close(); // not an initialize request: nothing to keep
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

/** Counts an open notification stream so the idle sweep leaves its session alone. */
function trackStream(res: Response, s: Session): Response {
  const reader = res.body!.getReader();
  let open = true;
  const end = () => {
    if (open) {
      open = false;
      s.streams--;
      s.seen = Date.now();
    }
  };
  s.streams++;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          ctrl.close();
        } else ctrl.enqueue(value);
      } catch (err) {
        end();
        ctrl.error(err);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Why Host/Origin do not name this loopback server, or undefined when they do. */
function rebindingProblem(req: Request): string | undefined {
  const host = req.headers.get('host');
  if (!host || !isLoopback(hostnameOf(`http://${host}`) ?? '')) return `Invalid Host header: ${host}`;
  const origin = req.headers.get('origin');
  if (origin && !isLoopback(hostnameOf(origin) ?? '')) return `Invalid Origin header: ${origin}`;
  return undefined;
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
