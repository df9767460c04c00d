/**
 * A search after a lull (not shipped), on a PostgreSQL store kept by `bench:scale:search
 * --keep`: the same questions (every 37th LoCoMo question) asked through the engine
 *
 *   - back to back on a warm pool (the baseline),
 *   - after a pause of --pause seconds with the pool's connections kept open,
 *   - after the same pause once the pool has closed its idle connections (idle timeout 1 s,
 *     as the pool's former fixed 30 s did after half a minute without a statement),
 *   - the same, with engram's start-up warm-up search run on the new connections first,
 *
 * and prints p50 / p95 of each beside its ratio to the baseline.
 *
 *   npm run bench:scale:lull -- --data <locomo10.json> --url <database url>
 *        [--methods hybrid,vector,keyword] [--queries 12] [--pause 2] [--owner owner-0]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import { openEngram } from '../../src/engram.js';
import { openPostgres } from '../../src/store/postgres.js';
import { percentile } from '../percentile.js';
import { probeQuestions } from './conversations.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    url: { type: 'string' },
    methods: { type: 'string', default: 'hybrid,vector,keyword' },
    queries: { type: 'string', default: '12' },
    pause: { type: 'string', default: '2' },
    owner: { type: 'string', default: 'owner-0' },
  },
});
if (!args.data || !args.url) {
  console.error(
    'usage: npm run bench:scale:lull -- --data <locomo10.json> --url <database url> [--methods m,...] [--queries N] [--pause s]',
  );
  process.exit(2);
}

async function main() {
  const url = args.url!;
  const pause = Number(args.pause) * 1000;
  const n = Number(args.queries);
  const questions = probeQuestions(args.data!);
  const warmUp = questions.slice(0, 10);
  const asked = questions.slice(10, 10 + n);
  // The pool closes a connection unused for 1 s: a pause longer than that finds none open.
  const db = openPostgres(url, { max: 10, idleTimeoutSeconds: 1 });
  const config = loadConfig({ DATABASE_URL: url, ENGRAM_LOG_LEVEL: 'silent', ENGRAM_WORKERS: 'false' });
  const engram = await openEngram(config, {
    command: 'bench',
    log: silentLogger,
    workers: false,
    prepareSearch: true,
    db,
  });
  // A pool whose connections stay open, on the same engine for the pause with them kept.
  const kept = openPostgres(url, { max: 10, idleTimeoutSeconds: 0 });
  const keptEngram = await openEngram(config, {
    command: 'bench',
    log: silentLogger,
    workers: false,
    prepareSearch: true,
    db: kept,
  });
  try {
    console.log(
      `PostgreSQL, ${args.owner}, ${asked.length} questions, top_k 10, engine calls; pause ${args.pause} s; ms\n`,
    );
    console.log('| method | case | p50 | p95 | p50 / warm | p95 / warm |');
    console.log('|---|---|---|---|---|---|');
    for (const method of args.methods!.split(',')) {
      const ask = async (e: typeof engram, q: string) => {
        const t = performance.now();
        await e.search.search(
          { tenantId: 'bench' },
          SearchInput.parse({
            query: q,
            user_id: args.owner,
            app_id: 'default',
            project_id: 'default',
            method,
            top_k: 10,
          }),
        );
        return performance.now() - t;
      };
      for (const q of warmUp) await ask(keptEngram, q);
      const cases: [string, number[]][] = [];
      const warm: number[] = [];
      for (let r = 0; r < 2; r++) for (const q of asked) warm.push(await ask(keptEngram, q));
      cases.push(['back to back, warm pool (baseline)', warm]);
      const paused: number[] = [];
      for (const q of asked) {
        await sleep(pause);
        paused.push(await ask(keptEngram, q));
      }
      cases.push(['after a pause, connections kept', paused]);
      for (const rewarm of [false, true]) {
        const xs: number[] = [];
        for (const q of asked) {
          await sleep(Math.max(pause, 1500));
          if (rewarm) await engram.warmUp();
          xs.push(await ask(engram, q));
        }
        cases.push([
          rewarm ? 'new connections after the warm-up search' : 'new connections (idle ones closed)',
          xs,
        ]);
      }
      const [b50, b95] = [percentile(warm, 50), percentile(warm, 95)];
      for (const [name, xs] of cases) {
        const [p50, p95] = [percentile(xs, 50), percentile(xs, 95)];
        console.log(
          `| ${method} | ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} | ${(p50 / b50).toFixed(2)} | ${(p95 / b95).toFixed(2)} |`,
        );
      }
    }
  } finally {
    await engram.close();
    await keptEngram.close();
    await db.close();
    await kept.close();
  }
}

await main();
