/**
 * npm run load -- [--clients 50] [--seconds 60] [--driver pglite|postgres]
 *
 * N clients × T seconds of mixed traffic against `engram serve` on each driver: async and
 * sync adds, get, search, flush, task reads, and a newcomer: one more client that opens a new
 * connection for each request (GET /health). Prints p50/p95/p99 per route, answers by
 * status, and checks at the end that every acknowledged message is in the store exactly
 * once. Exits 1 on any 5xx, socket error or unaccounted message.
 */
import { request } from 'node:http';
import { percentile } from '../percentile.js';
import { accountFor, client, turn, waitForTasks } from './client.js';
import { type Driver, driversFrom, options, startTarget } from './target.js';

const opts = options({ clients: '50', seconds: '60', driver: '' });
const ADMIN = process.env['ENGRAM_TEST_DATABASE_URL'];
const T0 = 1_767_225_600_000;

async function loadDriver(driver: Driver): Promise<boolean> {
  const target = await startTarget(driver, ADMIN);
  try {
    const call = client(target.url, await target.key('load'));
    const latencies = new Map<string, number[]>();
    const statuses = new Map<string, number>();
    const acked = new Set<string>();
    const note = (route: string, status: number, ms: number) => {
      if (!latencies.has(route)) latencies.set(route, []);
      latencies.get(route)!.push(ms);
      statuses.set(`${route} ${status}`, (statuses.get(`${route} ${status}`) ?? 0) + 1);
    };
    const until = performance.now() + Number(opts.seconds) * 1000;
    let seq = 0;
    const clientLoop = async (c: number) => {
      const user = `user-${c % 10}`;
      const session = `ld-${c}`;
      for (let n = 0; performance.now() < until; n++) {
        const pick = (c * 7919 + n * 104729) % 100;
        if (pick < 45) {
          const markers = [`ld-${c}-${n}-a`, `ld-${c}-${n}-b`];
          const ts = T0 + (seq++ % 1_000_000) * 1000;
          const sync = pick < 10;
          const r = await call('POST', '/api/v2/memory/add', {
            session_id: session,
            user_id: user,
            async_mode: !sync,
            messages: [turn(user, markers[0]!, ts), turn('agent-1', markers[1]!, ts + 1, 'assistant')],
          });
          note(sync ? 'add (sync)' : 'add (async)', r.status, r.ms);
          if (r.status === 200 || r.status === 202) for (const m of markers) acked.add(m);
        } else if (pick < 65) {
          const r = await call('POST', '/api/v2/memory/get', {
            memory_type: 'episode',
            user_id: user,
            page_size: 20,
          });
          note('get', r.status, r.ms);
        } else if (pick < 90) {
          const r = await call('POST', '/api/v2/memory/search', {
            query: 'hiking trip plans',
            user_id: user,
            top_k: 10,
          });
          note('search', r.status, r.ms);
        } else if (pick < 95) {
          const r = await call('POST', '/api/v2/memory/flush', { session_id: session, user_id: user });
          note('flush', r.status, r.ms);
        } else {
          const r = await call('GET', '/api/v2/tasks?page_size=20');
          note('tasks', r.status, r.ms);
        }
      }
    };
    // A client arriving while the others keep the server busy: GET /health (one statement)
    // on a new connection every half second, timed from connect to the answer.
    const newcomer = async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const status = await new Promise<number>((resolve) => {
          const req = request(`${target.url}/health`, { agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', () => resolve(0));
          req.end();
        });
        note('new client', status, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    const started = performance.now();
    await Promise.all([newcomer(), ...Array.from({ length: Number(opts.clients) }, (_, c) => clientLoop(c))]);
    const secs = (performance.now() - started) / 1000;
    const open = await waitForTasks(call, 600_000);
    const stored = await target.inspect((db) =>
      db.query<{ content: string }>(`SELECT content FROM messages WHERE session_id LIKE 'ld-%'`),
    );
    const { missing, doubled } = accountFor(
      acked,
      stored.map((r) => r.content),
    );
    const total = [...latencies.values()].reduce((a, l) => a + l.length, 0);
    const errors = [...statuses].filter(([k]) => !/ (200|202)$/.test(k));
    console.log(
      `\n[${driver}] ${opts.clients} clients x ${secs.toFixed(0)} s: ${total} requests (${(total / secs).toFixed(0)}/s)`,
    );
    for (const [route, l] of [...latencies].sort()) {
      const f = (p: number) => percentile(l, p).toFixed(0);
      console.log(
        `  ${route.padEnd(12)} n=${String(l.length).padEnd(6)} p50 ${f(50)} ms  p95 ${f(95)} ms  p99 ${f(99)} ms`,
      );
    }
    console.log(
      `  errors by status: ${errors.length ? errors.map(([k, v]) => `${k}: ${v}`).join(', ') : 'none'}`,
    );
    console.log(
      `  acknowledged messages: ${acked.size}; stored exactly once: ${acked.size - missing - doubled}; missing: ${missing}; doubled: ${doubled}; tasks still open: ${open}`,
    );
    const bad = errors.some(([k]) => / (0|5\d\d)$/.test(k)) || missing > 0 || doubled > 0 || open !== 0;
    if (bad) process.stderr.write(target.stderr().slice(-3000));
    return !bad;
  } finally {
    await target.dispose();
  }
}

let ok = true;
for (const driver of driversFrom(ADMIN, opts.driver || undefined)) ok = (await loadDriver(driver)) && ok;
process.exitCode = ok ? 0 : 1;
