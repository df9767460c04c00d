/**
 * npm run chaos -- [--cycles 8] [--clients 6] [--seed 1] [--driver pglite|postgres]
 *
 * Several clients send mixed async and sync adds, episode updates and deletes while the
 * server is killed with SIGKILL at random points `cycles` times and started again on the
 * same store. Then checks that every acknowledged message is stored exactly once, that no
 * re-run job left duplicate episodes, and that every task has finished. Prints the figures;
 * exits 1 on any loss, duplicate or unfinished task.
 */
import { accountFor, type Call, client, turn, waitForTasks } from './client.js';
import { type Driver, driversFrom, options, startTarget } from './target.js';

const opts = options({ cycles: '8', clients: '6', seed: '1', driver: '' });
const ADMIN = process.env['ENGRAM_TEST_DATABASE_URL'];
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

async function chaosDriver(driver: Driver): Promise<boolean> {
  const rnd = random(Number(opts.seed));
  const target = await startTarget(driver, ADMIN, { ENGRAM_BOUNDARY_MAX_MESSAGES: '6' });
  try {
    const call: Call = client(target.url, await target.key('chaos'));
    const acked = new Set<string>();
    const counts = { adds: 0, refused: 0, socket: 0, updates: 0, deletes: 0, five: 0 };
    let running = true;
    const tally = async (status: number) => {
      if (status === 0) {
        counts.socket++;
        await new Promise((r) => setTimeout(r, 100)); // the server is down: retry shortly
      } else if (status >= 500) counts.five++;
      else counts.refused++;
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
    for (let k = 0; k < Number(opts.cycles); k++) {
      await new Promise((r) => setTimeout(r, 1500 + rnd() * 3500));
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
    const ok = missing === 0 && doubled === 0 && dupEpisodes === 0 && unfinished === 0;
    if (!ok) process.stderr.write(target.stderr().slice(-3000));
    return ok;
  } finally {
    await target.dispose();
  }
}

let ok = true;
for (const driver of driversFrom(ADMIN, opts.driver || undefined)) ok = (await chaosDriver(driver)) && ok;
process.exitCode = ok ? 0 : 1;
