/**
 * npm run chaos -- [--cycles 8] [--clients 6] [--seed 1] [--driver pglite|postgres]
 *                  [--pg-data DIR] [--outage-seconds 6]
 *
 * Several clients send mixed async and sync adds, episode updates and deletes while the
 * server is killed with SIGKILL at random points `cycles` times and started again on the
 * same store. Then checks that every acknowledged message is stored exactly once, that no
 * re-run job left duplicate episodes, and that every task has finished. Prints the figures;
 * exits 1 on any 5xx (outside the outage below), loss, duplicate or unfinished task.
 *
 * On PostgreSQL with `--pg-data` (the cluster's data directory, as .ci/start-postgres.sh
 * made it under its first argument), the database itself is stopped half-way through for
 * `--outage-seconds` and started again, engram left running: every answer during the
 * outage must be 503 with Retry-After (or a success that beat the stop), and engram must
 * serve again once the database is back, without a restart.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Answer, accountFor, type Call, client, turn, waitForTasks } from './client.js';
import { type Driver, driversFrom, options, startTarget } from './target.js';

const opts = options({
  cycles: '8',
  clients: '6',
  seed: '1',
  driver: '',
  'pg-data': '',
  'outage-seconds': '6',
});
const ADMIN = process.env['ENGRAM_TEST_DATABASE_URL'];
const run = promisify(execFile);
const T0 = 1_767_225_600_000;

/** A small seeded generator (mulberry32), so a run's kill points repeat. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * pg_ctl on the cluster in dataDir (as the postgres user when run as root, like initdb). Not
 * synchronous: the clients' answers keep being read (and timed) while it runs.
 */
async function pgCtl(dataDir: string, args: string[]): Promise<void> {
  const bin = `${process.env['PG_BIN'] ?? '/usr/lib/postgresql/15/bin'}/pg_ctl`;
  const argv = [bin, '-D', dataDir, '-w', ...args];
  if (process.getuid?.() === 0)
    await run('su', ['postgres', '-s', '/bin/bash', '-c', argv.map((a) => `'${a}'`).join(' ')]);
  else await run(argv[0]!, argv.slice(1));
}

interface Outage {
  /** From the stop command to the restart command's return (performance.now()). */
  from: number;
  to?: number;
  /** Answers while the database was down, by kind. */
  unavailable: number;
  withoutRetryAfter: number;
  otherErrors: number;
  succeeded: number;
  /** From starting the database again to the first add acknowledged. */
  recoveryMs: number;
  /** Answers to the recovery probe before that, by status. */
  probes: Map<number, number>;
  /** The answers in the outage other than 503 and successes (the first 10). */
  others: string[];
  /** Each recovery probe's answer and time, in order (the acknowledged one last). */
  probeLog: string[];
  firstOther?: string;
  recovered?: boolean;
}

async function chaosDriver(driver: Driver): Promise<boolean> {
  const rnd = random(Number(opts.seed));
  const target = await startTarget(driver, ADMIN, { ENGRAM_BOUNDARY_MAX_MESSAGES: '6' });
  try {
    const plain: Call = client(target.url, await target.key('chaos'));
    // 5xx outside the outage, with what was asked and answered
    const fives: string[] = [];
    const call: Call = async (method, path, body) => {
      const sent = performance.now();
      const r = await plain(method, path, body);
      const o = outage;
      // in the outage: answered after the stop began, asked before the database was back
      if (o && performance.now() >= o.from && (o.to === undefined || sent <= o.to)) {
        during(o, r);
        if (r.status !== 503 && (r.status < 200 || r.status >= 300) && o.others.length < 10)
          o.others.push(`${method} ${path} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      } else if (r.status >= 500) {
        counts.five++;
        const at =
          o?.to !== undefined
            ? ` (asked ${((sent - o.to) / 1000).toFixed(1)} s after the database was back)`
            : '';
        if (fives.length < 10)
          fives.push(`${method} ${path} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}${at}`);
      }
      return r;
    };
    const acked = new Set<string>();
    const counts = { adds: 0, refused: 0, socket: 0, updates: 0, deletes: 0, five: 0 };
    let running = true;
    let outage: Outage | undefined;
    const during = (outage: Outage, r: Answer) => {
      if (r.status === 503) {
        outage.unavailable++;
        if (!r.retryAfter) outage.withoutRetryAfter++;
      } else if (r.status >= 200 && r.status < 300) outage.succeeded++;
      else outage.otherErrors++;
    };
    const tally = async (status: number) => {
      if (status === 503) {
        await new Promise((r) => setTimeout(r, 200)); // the database is down: retry shortly
      } else if (status === 0) {
        counts.socket++;
        await new Promise((r) => setTimeout(r, 100)); // the server is down: retry shortly
      } else if (status < 500) counts.refused++;
    };
    const clientLoop = async (c: number) => {
      const user = `user-${c}`;
      for (let n = 0; running; n++) {
        const pick = (c * 31 + n * 17) % 20;
        if (pick < 16) {
          const markers = [`ch-${c}-${n}-a`, `ch-${c}-${n}-b`];
          const ts = T0 + (c * 100_000 + n) * 60_000;
          const r = await call('POST', '/api/v2/memory/add', {
            session_id: `ch-${c}-${Math.floor(n / 8)}`,
            user_id: user,
            async_mode: pick % 4 !== 0,
            messages: [turn(user, markers[0]!, ts), turn('agent-1', markers[1]!, ts + 1, 'assistant')],
          });
          if (r.status === 200 || r.status === 202) {
            counts.adds++;
            for (const m of markers) acked.add(m);
          } else await tally(r.status);
          continue;
        }
        const got = await call('POST', '/api/v2/memory/get', {
          memory_type: 'episode',
          user_id: user,
          page_size: 5,
        });
        const id = got.body?.data?.episodes?.[0]?.id as string | undefined;
        if (!id) {
          if (got.status !== 200) await tally(got.status);
          continue;
        }
        const r =
          pick < 19
            ? await call('POST', '/api/v2/memory/update', {
                memory_type: 'episode',
                memory_id: id,
                patch: { summary: `revised ${n}` },
              })
            : await call('POST', '/api/v2/memory/delete_by_ids', {
                memory_type: 'episode',
                memory_ids: [id],
              });
        if (r.status === 200) counts[pick < 19 ? 'updates' : 'deletes']++;
        else await tally(r.status);
      }
    };
    const clients = Array.from({ length: Number(opts.clients) }, (_, c) => clientLoop(c));
    const pgData = driver === 'postgres' ? opts['pg-data'] : '';
    let outageSeen: Outage | undefined;
    for (let k = 0; k < Number(opts.cycles); k++) {
      await new Promise((r) => setTimeout(r, 1500 + rnd() * 3500));
      if (pgData && k === Math.floor(Number(opts.cycles) / 2)) {
        // the database goes away under load; engram keeps running
        outage = {
          from: performance.now(),
          unavailable: 0,
          withoutRetryAfter: 0,
          otherErrors: 0,
          succeeded: 0,
          recoveryMs: 0,
          probes: new Map(),
          probeLog: [],
          others: [],
        };
        await pgCtl(pgData, ['stop', '-m', 'fast']);
        await new Promise((r) => setTimeout(r, Number(opts['outage-seconds']) * 1000));
        const down = outage;
        await pgCtl(pgData, ['restart', '-l', `${pgData}/../log`]);
        const back = performance.now();
        down.to = back;
        for (let n = 0; ; n++) {
          const r = await plain('POST', '/api/v2/memory/add', {
            session_id: 'ch-recovery',
            user_id: 'user-recovery',
            async_mode: true,
            messages: [turn('user-recovery', `ch-recovery-${n}`, T0 + n * 60_000)],
          });
          if (r.status === 202) {
            acked.add(`ch-recovery-${n}`);
            down.probeLog.push(`202 in ${r.ms.toFixed(0)} ms`);
            break;
          }
          down.probes.set(r.status, (down.probes.get(r.status) ?? 0) + 1);
          down.probeLog.push(`${r.status} in ${r.ms.toFixed(0)} ms`);
          if (r.status !== 503 && r.status !== 0 && !down.firstOther)
            down.firstOther = `${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
          if (performance.now() - back > 120_000) break;
          await new Promise((res) => setTimeout(res, 250));
        }
        down.recoveryMs = performance.now() - back;
        down.recovered = down.recoveryMs <= 120_000;
        outageSeen = down;
        outage = undefined;
      }
      await target.kill('SIGKILL');
      await target.start();
    }
    await new Promise((r) => setTimeout(r, 2000));
    running = false;
    await Promise.all(clients);
    const open = await waitForTasks(call, 600_000);
    const { contents, dupEpisodes, unfinished } = await target.inspect(async (db) => {
      const rows = await db.query<{ content: string }>(
        `SELECT content FROM messages WHERE session_id LIKE 'ch-%'`,
      );
      const dup = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM episodes WHERE deleted_at IS NULL
           GROUP BY tenant_id, segment_id, owner_ids, episode HAVING count(*) > 1) d`,
      );
      const tasks = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tasks WHERE status NOT IN ('success', 'failed')`,
      );
      return { contents: rows.map((r) => r.content), dupEpisodes: dup[0]!.n, unfinished: tasks[0]!.n };
    });
    const { missing, doubled } = accountFor(acked, contents);
    console.log(`\n[${driver}] ${opts.cycles} kill -9 cycles, ${opts.clients} clients`);
    console.log(
      `  acknowledged messages: ${acked.size} (${counts.adds} adds); found exactly once: ${acked.size - missing - doubled}; missing: ${missing}; doubled: ${doubled}`,
    );
    console.log(
      `  updates ${counts.updates}, deletes ${counts.deletes}; refused 4xx ${counts.refused}, socket errors (server down) ${counts.socket}, 5xx ${counts.five}`,
    );
    console.log(
      `  duplicate episodes: ${dupEpisodes}; tasks not finished: ${unfinished} (open after wait: ${open})`,
    );
    for (const f of fives) console.log(`  5xx: ${f}`);
    let outageOk = true;
    if (outageSeen) {
      const o = outageSeen;
      console.log(
        `  database stopped ${opts['outage-seconds']} s under load: ${o.unavailable} answers 503 (${o.withoutRetryAfter} without Retry-After), ${o.otherErrors} other errors, ${o.succeeded} succeeded; first add acknowledged ${(o.recoveryMs / 1000).toFixed(1)} s after the database restarted (engram not restarted; probes: ${o.probeLog.join(', ')})`,
      );
      for (const other of o.others) console.log(`  in the outage: ${other}`);
      if (!o.recovered)
        console.log(`  engram did NOT recover within 120 s; first other answer: ${o.firstOther ?? 'none'}`);
      outageOk =
        o.unavailable > 0 && o.withoutRetryAfter === 0 && o.otherErrors === 0 && o.recovered === true;
    } else if (driver === 'postgres') console.log('  database outage: not run (no --pg-data)');
    const ok =
      outageOk &&
      counts.five === 0 &&
      missing === 0 &&
      doubled === 0 &&
      dupEpisodes === 0 &&
      unfinished === 0;
    if (!ok) process.stderr.write(target.stderr().slice(-3000));
    return ok;
  } finally {
    await target.dispose();
  }
}

let ok = true;
for (const driver of driversFrom(ADMIN, opts.driver || undefined)) ok = (await chaosDriver(driver)) && ok;
process.exitCode = ok ? 0 : 1;
