/**
 * What adding engram nodes buys: the same load through a round-robin proxy in front of
 * one node, then three nodes, on one PostgreSQL database (real `engram serve` processes,
 * the offline providers), measured in one run. Not shipped.
 *
 *   ENGRAM_TEST_DATABASE_URL=postgres://... npm run bench:scale:nodes [-- --searches N --adds N --concurrency C]
 *
 * Prints search p50 / p95 (hybrid search, C concurrent clients), acknowledged async adds a
 * second, and extraction throughput (tasks finished a second by the nodes' workers), for
 * 1 and 3 nodes, each as a ratio to the 1-node figure. A third run repeats 3 nodes with the
 * per-key rate limit off, to show what the shared (database) bucket costs. The machine's
 * cores bound what more processes can give: read the ratios with `nproc` in mind.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import type { Db } from '../../src/core/db.js';
import { openPostgres } from '../../src/store/postgres.js';
import { type Cluster, startCluster } from '../../test/helpers/cluster.js';
import { ADMIN_URL, createPostgresDatabase, dropPostgresDatabase } from '../../test/helpers/drivers.js';
import { MIN, T0, user } from '../../test/helpers/messages.js';

const { values } = parseArgs({
  options: {
    searches: { type: 'string', default: '300' },
    adds: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
  },
});
const SEARCHES = Number(values.searches);
const ADDS = Number(values.adds);
const C = Number(values.concurrency);

const TOPICS = [
  'I repaired the bicycle chain and oiled the gears',
  'We planted basil and chives on the balcony',
  'The choir rehearsal moved to Thursday evening',
  'I booked a ferry to the island for the long weekend',
  'My sourdough starter finally doubled overnight',
  'The library extended my loan of the atlas',
];

interface Figures {
  p50: number;
  p95: number;
  addsPerSecond: number;
  tasksPerSecond: number;
}

/** Runs `total` calls of fn with `c` in flight; returns each call's milliseconds. */
async function load(total: number, c: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
    }),
  );
  return times;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function measure(cluster: Cluster, db: Db, label: string): Promise<Figures> {
  const key = await cluster.key(`bench-${label}`);
  const post = async (path: string, body: unknown, want: number) => {
    const r = await cluster.call('POST', path, key, body);
    if (r.status !== want) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  // a little memory to search: one session per user, flushed
  for (let u = 0; u < 6; u++) {
    const messages = TOPICS.map((t, i) => user(`user-${u}`, `${t} (${u}).`, T0 + (u * 10 + i) * MIN));
    await post('/api/v2/memory/add', { session_id: `seed-${u}`, messages }, 200);
    await post('/api/v2/memory/flush', { session_id: `seed-${u}` }, 200);
  }
  const searches = await load(SEARCHES, C, async (i) => {
    await post(
      '/api/v2/memory/search',
      { user_id: `user-${i % 6}`, query: TOPICS[i % TOPICS.length]!.split(' ').slice(-3).join(' ') },
      200,
    );
  });
  const addStart = performance.now();
  await load(ADDS, C, async (i) => {
    await post(
      '/api/v2/memory/add',
      {
        session_id: `load-${label}-${i % 24}`,
        async_mode: true,
        messages: [user(`adder-${i % 24}`, `${TOPICS[i % TOPICS.length]} (${i}).`, T0 + i * MIN)],
      },
      202,
    );
  });
  const addSeconds = (performance.now() - addStart) / 1000;
  const tenant = `bench-${label}`;
  for (;;) {
    const open = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tasks
       WHERE tenant_id = $1 AND session_id LIKE 'load-%' AND status NOT IN ('success', 'failed')`,
      [tenant],
    );
    if (open[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const taskSeconds = (performance.now() - addStart) / 1000;
  const done = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM tasks WHERE tenant_id = $1 AND session_id LIKE 'load-%'`,
    [tenant],
  );
  return {
    p50: pct(searches, 50),
    p95: pct(searches, 95),
    addsPerSecond: ADDS / addSeconds,
    tasksPerSecond: done[0]!.n / taskSeconds,
  };
}

/**
 * MCP: a tools/call on a node that has not seen the session yet (it restores the session
 * from the database: one SELECT, a local server, the stored initialize replayed) against
 * the next call on that node (served from memory). A stateless mode would pay about the
 * restore price, minus the SELECT, on every request.
 */
async function mcpRestore(cluster: Cluster, sessions: number): Promise<{ restore: number; steady: number }> {
  const key = await cluster.key('bench-mcp');
  const headers = {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const rpc = async (url: string, body: unknown, session?: string) => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        ...headers,
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`MCP ${res.status}: ${text}`);
    return res.headers.get('mcp-session-id') ?? session!;
  };
  const call = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'get_memories', arguments: { memory_type: 'episode', user_id: 'user-0' } },
  };
  const [a, b] = [cluster.nodes[0]!.url, cluster.nodes[1]!.url];
  const restore: number[] = [];
  const steady: number[] = [];
  for (let i = 0; i < sessions; i++) {
    const id = await rpc(a, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
    await rpc(a, { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
    let t = performance.now();
    await rpc(b, call, id);
    restore.push(performance.now() - t);
    t = performance.now();
    await rpc(b, call, id);
    steady.push(performance.now() - t);
  }
  return { restore: pct(restore, 50), steady: pct(steady, 50) };
}

async function main(): Promise<number> {
  if (!ADMIN_URL) {
    console.error(
      'bench:scale:nodes needs ENGRAM_TEST_DATABASE_URL (an admin URL of a PostgreSQL server with pgvector)',
    );
    return 2;
  }
  const url = await createPostgresDatabase();
  const db = openPostgres(url, { max: 2 });
  // a limit no run reaches, so that each request pays for the shared bucket
  const limited = { ENGRAM_RATE_LIMIT_RPS: '100000', ENGRAM_RATE_LIMIT_BURST: '100000' };
  const runs: [string, number, Record<string, string>][] = [
    ['1 node', 1, limited],
    ['3 nodes', 3, limited],
    ['3 nodes, no rate limit', 3, { ENGRAM_RATE_LIMIT_RPS: '0' }],
  ];
  const results: [string, Figures][] = [];
  let mcp = { restore: 0, steady: 0 };
  try {
    for (const [i, [label, size, env]] of runs.entries()) {
      const cluster = await startCluster(size, { ENGRAM_LOG_LEVEL: 'error', ...env }, url);
      try {
        results.push([label, await measure(cluster, db, `r${i}`)]);
        if (i === runs.length - 1) mcp = await mcpRestore(cluster, 40);
      } finally {
        await cluster.close();
      }
    }
  } finally {
    await db.close();
    await dropPostgresDatabase(url);
  }
  const base = results[0]![1];
  console.log(
    `bench:scale:nodes  ${SEARCHES} searches and ${ADDS} async adds per run, ${C} concurrent clients, ${availableParallelism()} cores`,
  );
  console.log(
    'run                      search p50 ms (ratio)  search p95 ms (ratio)  adds/s (ratio)   tasks/s (ratio)',
  );
  for (const [label, f] of results) {
    const cell = (v: number, b: number, digits = 1) =>
      `${v.toFixed(digits)} (${(v / b).toFixed(2)})`.padEnd(23);
    console.log(
      `${label.padEnd(25)}${cell(f.p50, base.p50)}${cell(f.p95, base.p95)}${cell(f.addsPerSecond, base.addsPerSecond, 0).padEnd(17)}${cell(f.tasksPerSecond, base.tasksPerSecond)}`,
    );
  }
  console.log(
    `MCP tools/call p50: first on a node that restores the session ${mcp.restore.toFixed(1)} ms, next ${mcp.steady.toFixed(1)} ms (ratio ${(mcp.restore / mcp.steady).toFixed(2)})`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
