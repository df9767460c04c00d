/**
 * npm run fuzz -- [--requests 10000] [--seed 1] [--concurrency 8] [--driver pglite|postgres]
 *
 * A seeded, grammar-based fuzzer over every REST route (from /openapi.json: bodies, path and
 * query parameters drawn from the published schemas, with hostile values mixed in, plus
 * broken JSON, wrong methods and wrong content types) and every MCP tool (from tools/list,
 * over a real /mcp session; also resources/read and prompts/get), against `engram serve` on
 * each driver (PostgreSQL when ENGRAM_TEST_DATABASE_URL is an admin URL). Prints the count
 * per status and fails on any 5xx, any error body outside the documented envelope, any
 * answer without X-Request-Id, any socket error, a message stored by a rejected add, or a
 * side effect of a rejected write: after the concurrent run and its background work,
 * `--write-checks` updates, deletes, feedback, profile edits and tag changes (REST and MCP)
 * are sent one at a time, and the memory every owner holds is read before and after each
 * one that is refused; at the end the stored feedback rows must be exactly the accepted
 * ratings.
 */
import fc from 'fast-check';
import { ErrorBody, TaskErrorBody, V1ErrorBody } from '../../src/contract/errors.js';
import type { EngramError } from '../../src/core/errors.js';
import { styleForPath } from '../../src/http/errors.js';
import { client, waitForTasks } from './client.js';
import { fromSchema, hostile, NAMES, toJson } from './grammar.js';
import { type Driver, driversFrom, options, startTarget, type Target } from './target.js';

const opts = options({ requests: '10000', seed: '1', concurrency: '8', driver: '', 'write-checks': '200' });
const ADMIN = process.env['ENGRAM_TEST_DATABASE_URL'];
const ENVELOPES = { memory: ErrorBody, tasks: TaskErrorBody, v1: V1ErrorBody };

type Req =
  | {
      kind: 'rest';
      method: string;
      path: string;
      query: string;
      body?: unknown;
      raw?: string;
      contentType?: string;
    }
  | { kind: 'mcp'; rpc: { method: string; params: Record<string, unknown> } };

interface Tally {
  byStatus: Map<string, number>;
  violations: string[];
  acceptedSessions: Set<string>;
  fuzzedSessions: Set<string>;
  requests: number;
  /** Whether the last request was accepted (2xx REST, a tool result without isError). */
  accepted: boolean;
  feedbackAccepted: number;
  /** Ids of stored memories the requests could name. */
  known: number;
  writesChecked: number;
  writesRefused: number;
}

/** The writes whose refusals are checked for side effects. */
const WRITE_PATH =
  /^\/api\/v2\/memory\/(update|delete|delete_by_ids|feedback|edit|tag\/(bind|unbind|replace))$/;
const WRITE_TOOLS = new Set([
  'update_episode',
  'delete_memories',
  'delete_episodes',
  'rate',
  'tag_memories',
  'untag_memories',
  'retag_memories',
  'edit_profile',
]);

function restRequests(
  doc: any,
  known: string[],
  only: (path: string) => boolean = () => true,
): fc.Arbitrary<Req>[] {
  const components = doc.components?.schemas ?? {};
  const out: fc.Arbitrary<Req>[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    if (!only(path)) continue;
    for (const [method, op] of Object.entries<any>(methods)) {
      const params: any[] = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const pathArb = fc.tuple(
        ...pathParams.map((p) => fc.oneof(fromSchema(p.schema ?? {}, { components, known }), hostile)),
      );
      const queryArb = fc.tuple(
        ...queryParams.map((p) =>
          fc.option(fromSchema(p.schema ?? {}, { components, known }), { freq: 3, nil: undefined }),
        ),
      );
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const bodyArb: fc.Arbitrary<{ body?: unknown; raw?: string }> = bodySchema
        ? fc.oneof(
            { arbitrary: fromSchema(bodySchema, { components, known }).map((body) => ({ body })), weight: 8 },
            {
              arbitrary: fromSchema(bodySchema, { components, known, hostileWeight: 0 }).map((body) => ({
                body,
              })),
              weight: 4,
            },
            {
              arbitrary: fc.constantFrom('{', '', 'null', '[]', '{"a":1}{', '\u0000').map((raw) => ({ raw })),
              weight: 1,
            },
          )
        : fc.constant({});
      const methodArb = fc.oneof(
        { arbitrary: fc.constant(method.toUpperCase()), weight: 20 },
        { arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'GET', 'POST'), weight: 1 },
      );
      const typeArb = fc.oneof(
        { arbitrary: fc.constant('application/json'), weight: 20 },
        { arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded'), weight: 1 },
      );
      out.push(
        fc
          .record({ m: methodArb, p: pathArb, q: queryArb, b: bodyArb, t: typeArb })
          .map(({ m, p, q, b, t }) => {
            let concrete = path;
            pathParams.forEach((param, i) => {
              const v = p[i];
              concrete = concrete.replace(
                `{${param.name}}`,
                percentEncoded(typeof v === 'string' ? v : toJson(v)),
              );
            });
            const qs = new URLSearchParams();
            queryParams.forEach((param, i) => {
              const v = q[i];
              if (v !== undefined) qs.set(param.name, typeof v === 'string' ? v : toJson(v));
            });
            return {
              kind: 'rest',
              method: m,
              path: concrete,
              query: qs.toString(),
              ...b,
              contentType: t,
            } as Req;
          }),
      );
    }
  }
  return out;
}

function toolCalls(tools: any[], known: string[]): fc.Arbitrary<Req>[] {
  return tools.map((t) =>
    fromSchema(t.inputSchema ?? {}, { known }).map(
      (args) =>
        ({ kind: 'mcp', rpc: { method: 'tools/call', params: { name: t.name, arguments: args } } }) as Req,
    ),
  );
}

function mcpRequests(tools: any[], known: string[]): fc.Arbitrary<Req>[] {
  const calls = toolCalls(tools, known);
  const uri = fc.oneof(
    fc.constantFrom('users/u1/episodes', 'users/u1/profile', 'agents/agent-1/cases', 'agents/agent-1/skills'),
    fc
      .tuple(fc.constantFrom('episodes', 'cases', 'skills'), fc.string())
      .map(([k, id]) => `${k}/${percentEncoded(id)}`),
    hostile.map(
      (h) => `users/${percentEncoded(toJson(h).slice(0, 500))}/episodes?page=${toJson(h).slice(0, 50)}`,
    ),
  );
  const read = uri.map(
    (u) =>
      ({
        kind: 'mcp',
        rpc: { method: 'resources/read', params: { uri: `engram://default/default/${u}` } },
      }) as Req,
  );
  const prompt = fc
    .record(
      { query: fromSchema({ type: 'string' }), user_id: fromSchema({ type: 'string' }) },
      { requiredKeys: [] },
    )
    .map(
      (args) =>
        ({
          kind: 'mcp',
          rpc: { method: 'prompts/get', params: { name: 'recall_context', arguments: args } },
        }) as Req,
    );
  const unknown = hostile.map(
    (a) =>
      ({ kind: 'mcp', rpc: { method: 'tools/call', params: { name: 'no_such_tool', arguments: a } } }) as Req,
  );
  return [...calls, read, prompt, unknown];
}

async function fuzzDriver(driver: Driver): Promise<Tally> {
  const target = await startTarget(driver, ADMIN, { ENGRAM_MCP_TOOLS: 'all' });
  const tally: Tally = {
    byStatus: new Map(),
    violations: [],
    acceptedSessions: new Set(),
    fuzzedSessions: new Set(),
    requests: 0,
    accepted: false,
    feedbackAccepted: 0,
    known: 0,
    writesChecked: 0,
    writesRefused: 0,
  };
  try {
    const key = await target.key('fuzz');
    const auth = { authorization: `Bearer ${key}` };
    const v1Auth = { authorization: `Bearer ${await target.key('fuzz', 'v1')}` };
    // Some data for reads, updates and deletes to meet.
    // rater: an owner no generated request names, whose memories the valid ratings rate
    for (const [i, user] of ['u1', 'u2', 'alice', 'rater'].entries()) {
      const t = 1_767_225_600_000 + i * 3_600_000;
      await fetch(`${target.url}/api/v2/memory/add`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          session_id: `seed-${user}`,
          user_id: user,
          messages: [
            {
              role: 'user',
              sender_id: user,
              content: 'I moved to Porto last spring and started learning to surf.',
              timestamp: t,
            },
            {
              role: 'assistant',
              sender_id: 'agent-1',
              content: 'Noted: Porto, surfing.',
              timestamp: t + 1000,
            },
          ],
        }),
      });
      await fetch(`${target.url}/api/v2/memory/flush`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: `seed-${user}`, user_id: user }),
      });
    }
    const known = (await storedMemories(target.url, auth, ['u1', 'u2', 'alice'])).map((m) => m.id);
    tally.known = known.length;
    const rated = await storedMemories(target.url, auth, ['rater']);
    const valid: fc.Arbitrary<Req>[] = rated.length ? [validRatings(rated)] : [];
    const doc = await (await fetch(`${target.url}/openapi.json`)).json();
    const mcp = await mcpSession(target.url, auth);
    const tools = (await mcp.send({ method: 'tools/list', params: {} })).body.result.tools;

    const rest = restRequests(doc, known);
    const viaMcp = mcpRequests(tools, known);
    const arb = fc.oneof(
      { arbitrary: fc.oneof(...rest), weight: 14 },
      { arbitrary: fc.oneof(...viaMcp), weight: 6 },
      ...valid.map((arbitrary) => ({ arbitrary, weight: 1 })),
    );
    const n = Number(opts.requests);
    const reqs = fc.sample(arb, { seed: Number(opts.seed) + (driver === 'postgres' ? 1 : 0), numRuns: n });

    let next = 0;
    const worker = async () => {
      for (let i = next++; i < reqs.length; i = next++)
        await one(target, { v2: auth, v1: v1Auth }, mcp, reqs[i]!, i, tally);
    };
    await Promise.all(Array.from({ length: Number(opts.concurrency) }, worker));

    // Refused writes change nothing: one at a time, once the background work is done, the
    // memory of every owner is read before and after each write that is refused.
    await waitForTasks(client(target.url, key), 600_000);
    const writes = fc.sample(
      fc.oneof(
        ...restRequests(doc, known, (p) => WRITE_PATH.test(p)),
        ...toolCalls(
          tools.filter((t: { name: string }) => WRITE_TOOLS.has(t.name)),
          known,
        ),
        ...valid,
      ),
      { seed: Number(opts.seed) + 7, numRuns: Number(opts['write-checks']) },
    );
    for (const [k, w] of writes.entries()) {
      const before = await memoryOf(target.url, auth);
      await one(target, { v2: auth, v1: v1Auth }, mcp, w, reqs.length + k, tally);
      tally.writesChecked++;
      if (tally.accepted) continue;
      tally.writesRefused++;
      const after = await memoryOf(target.url, auth);
      if (after !== before)
        tally.violations.push(`a refused write changed memory: ${JSON.stringify(w).slice(0, 400)}`);
    }

    // A rejected add stores nothing: every fuzz session in the store was acknowledged; and
    // every stored rating comes from an accepted feedback request.
    const { stored, ratings } = await target.inspect(async (db) => ({
      stored: await db.query<{ session_id: string }>(
        `SELECT DISTINCT session_id FROM messages WHERE session_id LIKE 'fz-%'`,
      ),
      ratings: (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback'))[0]!.n,
    }));
    for (const { session_id } of stored)
      if (!tally.acceptedSessions.has(session_id))
        tally.violations.push(`stored from a rejected request: session ${session_id}`);
    if (Number(ratings) !== tally.feedbackAccepted)
      tally.violations.push(`${ratings} feedback rows stored for ${tally.feedbackAccepted} accepted ratings`);
  } finally {
    if (tally.violations.length) process.stderr.write(target.stderr().slice(-4000));
    await target.dispose();
  }
  return tally;
}

/** The memories (episodes, profiles) of the seeded owners given, for requests that name one. */
async function storedMemories(url: string, auth: Record<string, string>, users: string[]): Promise<Stored[]> {
  const out: Stored[] = [];
  for (const user of users)
    for (const [type, list] of [
      ['episode', 'episodes'],
      ['profile', 'profiles'],
    ] as const) {
      const res = await fetch(`${url}/api/v2/memory/get`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ memory_type: type, user_id: user }),
      });
      const body = (await res.json()) as { data?: Record<string, { id: string }[]> };
      for (const m of body.data?.[list] ?? []) out.push({ type, id: m.id });
    }
  return out;
}

interface Stored {
  type: 'episode' | 'profile';
  id: string;
}

/**
 * Ratings that must be accepted: a stored memory under its own type, over REST and MCP
 * (the generated ones almost never name a memory that exists, under its type, with every
 * other field valid), so that the stored-ratings check counts accepted ones too.
 */
function validRatings(stored: Stored[]): fc.Arbitrary<Req> {
  const body = fc
    .record({
      m: fc.constantFrom(...stored),
      rating: fc.constantFrom('positive', 'negative'),
      reason: fc.option(fc.constantFrom('outdated', 'wrong_time', 'other'), { nil: undefined }),
    })
    .map(({ m, rating, reason }) => ({
      memory_type: m.type,
      memory_id: m.id,
      rating,
      ...(reason ? { reason } : {}),
    }));
  return fc.oneof(
    body.map(
      (b) => ({ kind: 'rest', method: 'POST', path: '/api/v2/memory/feedback', query: '', body: b }) as Req,
    ),
    body.map(
      (b) => ({ kind: 'mcp', rpc: { method: 'tools/call', params: { name: 'rate', arguments: b } } }) as Req,
    ),
  );
}

interface McpSession {
  send(rpc: {
    method: string;
    params: Record<string, unknown>;
  }): Promise<{ status: number; headers: Headers; body: any }>;
}

async function mcpSession(url: string, auth: Record<string, string>): Promise<McpSession> {
  const base = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let id = 0;
  const post = async (headers: Record<string, string>, msg: object) => {
    const res = await fetch(`${url}/mcp`, { method: 'POST', headers, body: toJson(msg) });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // left as text: the check below reports it
    }
    return { status: res.status, headers: res.headers, body };
  };
  const init = await post(base, {
    jsonrpc: '2.0',
    id: ++id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  });
  const sid = init.headers.get('mcp-session-id');
  if (!sid) throw new Error(`MCP initialize failed: ${init.status} ${JSON.stringify(init.body)}`);
  const headers = { ...base, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send: (rpc) => post(headers, { jsonrpc: '2.0', id: ++id, ...rpc }) };
}

async function one(
  target: Target,
  keys: { v1: Record<string, string>; v2: Record<string, string> },
  mcp: McpSession,
  req: Req,
  i: number,
  t: Tally,
) {
  t.requests++;
  t.accepted = false;
  const count = (k: string) => t.byStatus.set(k, (t.byStatus.get(k) ?? 0) + 1);
  const fail = (what: string) => {
    if (t.violations.length < 50) t.violations.push(`${what}: ${JSON.stringify(req).slice(0, 400)}`);
    else t.violations.length++;
  };
  const counted = (k: string, what: string) => {
    count(k);
    fail(what);
  };
  // Most adds get a session id of their own, so a stored message can be traced to its request.
  let session: string | undefined;
  const tag = (body: unknown) => {
    if (i % 10 !== 0 && body && typeof body === 'object' && !Array.isArray(body)) {
      session = `fz-${i}`;
      (body as Record<string, unknown>)['session_id'] = session;
      t.fuzzedSessions.add(session);
    }
  };
  try {
    if (req.kind === 'mcp') {
      if (req.rpc.method === 'tools/call' && req.rpc.params['name'] === 'remember')
        tag(req.rpc.params['arguments']);
      const r = await mcp.send(req.rpc);
      if (r.status >= 500) return counted(`mcp http ${r.status}`, `mcp http ${r.status}`);
      if (!r.headers.get('x-request-id')) fail('mcp answer without X-Request-Id');
      const b = r.body;
      if (b?.error) {
        count(`mcp rpc ${b.error.code}`);
        if (typeof b.error.code !== 'number' || typeof b.error.message !== 'string')
          return fail('mcp error outside JSON-RPC');
        if (/^MCP error/.test(b.error.message)) return fail('mcp error message with the SDK prefix');
        if (b.error.code === -32603) fail('mcp internal error');
        return;
      }
      const result = b?.result;
      if (!result) return counted(`mcp http ${r.status}`, 'mcp answer without result or error');
      if (result.isError) {
        let e: any;
        try {
          e = JSON.parse(result.content[0].text).error;
        } catch {
          return counted('mcp isError ?', 'mcp tool error not JSON');
        }
        count(`mcp isError ${e?.status_code}`);
        if (
          typeof e?.code !== 'string' ||
          typeof e?.message !== 'string' ||
          typeof e?.status_code !== 'number'
        )
          return fail('mcp tool error outside the envelope');
        if (e.status_code >= 500) fail(`mcp tool error ${e.status_code}`);
        return;
      }
      count('mcp ok');
      t.accepted = true;
      if (req.rpc.params['name'] === 'rate') t.feedbackAccepted++;
      if (session) t.acceptedSessions.add(session);
      return;
    }
    if (req.path === '/api/v2/memory/add') tag(req.body);
    const body = req.raw ?? (req.body !== undefined ? toJson(req.body) : undefined);
    // v1 routes mostly with a v1 key; now and then with a v2 one (403)
    const auth = req.path.startsWith('/api/v1/') && i % 16 !== 0 ? keys.v1 : keys.v2;
    const url = new URL(`${target.url}${req.path}${req.query ? `?${req.query}` : ''}`);
    const res = await fetch(url, {
      method: req.method,
      headers: {
        ...auth,
        ...(body !== undefined ? { 'content-type': req.contentType ?? 'application/json' } : {}),
      },
      ...(body !== undefined && req.method !== 'GET' ? { body } : {}),
    });
    const text = await res.text();
    count(String(res.status));
    if (res.status >= 500) return fail(`REST ${res.status} ${text.slice(0, 200)}`);
    if (!res.headers.get('x-request-id')) fail(`REST ${res.status} without X-Request-Id`);
    if (res.status < 400) {
      t.accepted = true;
      if (req.path === '/api/v2/memory/feedback') t.feedbackAccepted++;
      if (session) t.acceptedSessions.add(session);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return fail(`REST ${res.status} body not JSON`);
    }
    const p = parsed as { code?: unknown; error?: { code?: unknown } } | null;
    const code = String(p?.code ?? p?.error?.code ?? '');
    // A request line over 16 KB is refused before its end is read: its path is not known in
    // full, so any family's envelope will do there. Otherwise the envelope is that of the
    // path as sent: the URL parser resolves dot segments, `%2e` included.
    const envelopes =
      res.status === 431
        ? Object.values(ENVELOPES)
        : [ENVELOPES[styleForPath(url.pathname, { code } as EngramError)]];
    const ok =
      envelopes.map((e) => e.safeParse(parsed)).find((r) => r.success) ?? envelopes[0]!.safeParse(parsed);
    if (!ok.success) return fail(`REST ${res.status} body outside the envelope ${text.slice(0, 200)}`);
    if (ok.data.request_id !== res.headers.get('x-request-id'))
      fail('REST request_id differs from X-Request-Id');
    if (res.status === 405 && !res.headers.get('allow')) fail('405 without Allow');
  } catch (err) {
    count('socket error');
    fail(`socket error ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}`);
  }
}

async function main() {
  const drivers = driversFrom(ADMIN, opts.driver || undefined);
  let failed = false;
  console.log(
    `fuzz: ${opts.requests} requests per driver, seed ${opts.seed}, concurrency ${opts.concurrency}`,
  );
  for (const driver of drivers) {
    const started = performance.now();
    const t = await fuzzDriver(driver);
    const secs = (performance.now() - started) / 1000;
    const fiveXX = [...t.byStatus].filter(([k]) => /(^| )5\d\d$/.test(k)).reduce((a, [, v]) => a + v, 0);
    const statuses = [...t.byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`);
    console.log(
      `\n[${driver}] ${t.requests} requests in ${secs.toFixed(0)} s; 5xx: ${fiveXX}; violations: ${t.violations.length}`,
    );
    console.log(`  by status: ${statuses.join(', ')}`);
    console.log(`  adds traced: ${t.fuzzedSessions.size}, acknowledged: ${t.acceptedSessions.size}`);
    console.log(`  stored memories the requests could name: ${t.known}`);
    console.log(
      `  writes checked one at a time: ${t.writesChecked}, refused: ${t.writesRefused}; accepted ratings: ${t.feedbackAccepted}`,
    );
    for (const v of t.violations.slice(0, 20)) console.log(`  VIOLATION ${v}`);
    if (t.violations.length || fiveXX) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}

await main();

/** Every byte of the UTF-8 text percent-encoded (encodeURIComponent throws on lone surrogates). */
function percentEncoded(v: string): string {
  return [...Buffer.from(v, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** Every owner's memory of the fuzz tenant as the API reads it, as one string. */
async function memoryOf(url: string, auth: Record<string, string>): Promise<string> {
  const reads = NAMES.flatMap((name) => [
    { memory_type: 'episode', user_id: name },
    { memory_type: 'profile', user_id: name },
    { memory_type: 'agent_case', agent_id: name },
    { memory_type: 'agent_skill', agent_id: name },
  ]);
  const pages = await Promise.all(
    reads.map(async (body) => {
      const res = await fetch(`${url}/api/v2/memory/get`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, page_size: 100 }),
      });
      return `${res.status} ${JSON.stringify(((await res.json()) as { data?: unknown }).data)}`;
    }),
  );
  return pages.join('\n');
}
