/**
 * Where one search's time goes (not shipped), on a store kept by `bench:scale:search --keep`:
 * opens it as `engram serve` does and answers questions (every 37th LoCoMo question) over
 * REST on loopback, one at a time, and prints per method p50/p95 of: the whole request, the
 * engine's search call, the SQL (wall time covered by its statements), the query
 * embedding, the rest (HTTP, auth, zod, JSON), the number of statements; CPU per search of
 * this process (server and client) and, with --pgdata, of the PostgreSQL server's
 * processes; then each statement's p50/p95.
 *
 *   npm run bench:scale:profile -- --data <locomo10.json> (--url <database url> | --dir <data dir>)
 *        [--queries 20] [--warmup 5] [--methods keyword,vector,hybrid] [--owner owner-0] [--pgdata <cluster data dir>]
 *        [--replay <method>] [--dump <file>] [--explain <method>] [--question <i>] [--answers <file>]
 *        [--timeline <method>]
 *
 * --replay: each statement of one search (3 questions) run 20 times alone, with its wall
 * time and CPU; --dump writes those statements and their parameters as JSON.
 * --explain: EXPLAIN (ANALYZE, BUFFERS) of every read statement of one search (the i-th
 * question asked, --question, default the first).
 * --timeline: when each statement of one search (3 questions) started and ended, from the
 * request's start: the chain of round trips a search waits on.
 * --answers: one JSON line per search asked, warm-up included (method, question, and the ids
 * and scores of every hit of each kind), to compare what two versions answer on the same
 * kept store (`npm run bench:scale:compare`). ENGRAM_KEYWORD_DEPTH in the environment is the
 * search's: 100000000 reads every posting, exact BM25, the reference for how exact the
 * default is.
 */
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import type { Db, Row, Sql } from '../../src/core/db.js';
import { silentLogger } from '../../src/core/log.js';
import { openEngram, openStore } from '../../src/engram.js';
import { startHttpServer } from '../../src/http/server.js';
import { percentile } from '../percentile.js';
import { probeQuestions } from './conversations.js';
import { explaining } from './explain.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    url: { type: 'string' },
    dir: { type: 'string' },
    queries: { type: 'string', default: '20' },
    methods: { type: 'string', default: 'keyword,vector,hybrid' },
    owner: { type: 'string', default: 'owner-0' },
    warmup: { type: 'string', default: '5' },
    explain: { type: 'string' },
    question: { type: 'string', default: '0' },
    pgdata: { type: 'string' },
    replay: { type: 'string' },
    dump: { type: 'string' },
    answers: { type: 'string' },
    timeline: { type: 'string' },
  },
});

/** CPU seconds (user + system) of the PostgreSQL server's processes (children of the postmaster in --pgdata). */
function serverCpu(): number {
  if (!args.pgdata) return 0;
  const postmaster = readFileSync(`${args.pgdata}/postmaster.pid`, 'utf8').split('\n')[0]!.trim();
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8')
        .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
        .split(' ');
      if (f[1] === postmaster || pid === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}

interface Stmt {
  text?: string;
  params?: readonly unknown[];
  label: string;
  start: number;
  end: number;
}

function timed(db: Db, log: Stmt[]): Db {
  const wrap = (q: Sql): Sql => ({
    async query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      const start = performance.now();
      try {
        return await q.query<T>(text, params);
      } finally {
        const flat = text.replace(/\s+/g, ' ').trim();
        const target = /FROM atomic_facts f/.test(flat)
          ? 'facts '
          : /FROM episodes e/.test(flat)
            ? 'episodes '
            : '';
        const kind = /kwpost/.test(flat)
          ? 'rank kw '
          : /WITH vec/.test(flat)
            ? 'rank vec '
            : /= ANY \(ARRAY\(SELECT jsonb_array/.test(flat)
              ? 'by ids '
              : '';
        const label = `${target}${kind}${flat.slice(0, 50)}`;
        log.push({ label, start, end: performance.now(), text, params });
      }
    },
  });
  return {
    driver: db.driver,
    query: wrap(db).query,
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
    listen: (c, f) => db.listen(c, f),
    exclusive: (key, fn) => db.exclusive(key, fn),
    close: () => db.close(),
  };
}

/** Every hit of a search answer, per kind: `id score` (facts inside their episode's list). */
function hitsOf(body: string): Record<string, string[]> {
  const data = (JSON.parse(body) as { data: Record<string, unknown> }).data;
  const out: Record<string, string[]> = {};
  for (const [kind, list] of Object.entries(data)) {
    if (!Array.isArray(list)) continue;
    out[kind] = (
      list as { id?: string; score?: number; atomic_facts?: { id: string; score: number }[] }[]
    ).flatMap((h) => [`${h.id} ${h.score}`, ...(h.atomic_facts ?? []).map((f) => `  ${f.id} ${f.score}`)]);
  }
  return out;
}

/** Time covered by the union of the intervals, and the longest chain of sequential ones. */
function covered(xs: Stmt[]): number {
  const s = [...xs].sort((a, b) => a.start - b.start);
  let total = 0;
  let cur: [number, number] | undefined;
  for (const x of s) {
    if (!cur || x.start > cur[1]) {
      if (cur) total += cur[1] - cur[0];
      cur = [x.start, x.end];
    } else cur[1] = Math.max(cur[1], x.end);
  }
  if (cur) total += cur[1] - cur[0];
  return total;
}

async function main() {
  const config = loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_LOG_LEVEL: 'silent',
    ENGRAM_RATE_LIMIT_RPS: '0',
    ENGRAM_WORKERS: 'false',
    // The search's own setting, from the environment (e.g. an exact reference for bench:scale:compare).
    ENGRAM_KEYWORD_DEPTH: process.env['ENGRAM_KEYWORD_DEPTH'],
    ...(args.url ? { DATABASE_URL: args.url, ENGRAM_DB_POOL_MAX: '8' } : { ENGRAM_DATA_DIR: args.dir! }),
  });
  const stmts: Stmt[] = [];
  const store = await openStore(config, 'bench', undefined);
  const plans = explaining(store.db);
  const db = timed(plans, stmts);
  const engram = await openEngram(config, {
    command: 'bench',
    log: silentLogger,
    workers: false,
    prepareSearch: true,
    db,
  });
  const server = await startHttpServer(engram);
  const key = (await engram.keys.create('bench')).key;
  const questions = probeQuestions(args.data!);
  const n = Number(args.queries);
  const methods = args.methods!.split(',');
  // Engine time: the search call itself.
  const inner: number[] = [];
  const search = engram.search.search.bind(engram.search);
  engram.search.search = async (ctx, input) => {
    const t0 = performance.now();
    try {
      return await search(ctx, input);
    } finally {
      inner.push(performance.now() - t0);
    }
  };
  const embed = engram.embedder.embed.bind(engram.embedder);
  const embeds: number[] = [];
  engram.embedder.embed = async (texts) => {
    const t0 = performance.now();
    try {
      return await embed(texts);
    } finally {
      embeds.push(performance.now() - t0);
    }
  };
  const rest = async (method: string, query: string) => {
    const res = await fetch(`${server.url}/api/v2/memory/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        app_id: 'default',
        project_id: 'default',
        user_id: args.owner,
        query,
        method,
        top_k: 10,
      }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method}: ${res.status} ${text}`);
    if (args.answers)
      appendFileSync(args.answers, `${JSON.stringify({ method, query, hits: hitsOf(text) })}\n`);
    return text.length;
  };
  // The warm-up asks the questions in turn, again from the first once they run out: a count
  // above theirs warms every connection of the pool as a long-running server's are.
  for (let i = 0; i < Number(args.warmup); i++)
    for (const m of methods) await rest(m, questions[i % questions.length]!);
  for (const m of methods) {
    const rows: {
      total: number;
      engine: number;
      embed: number;
      sql: number;
      stmts: number;
      bytes: number;
    }[] = [];
    const perLabel = new Map<string, number[]>();
    const cpu0 = process.cpuUsage();
    const srv0 = serverCpu();
    const wall0 = performance.now();
    for (const q of questions.slice(0, n)) {
      stmts.length = 0;
      inner.length = 0;
      embeds.length = 0;
      const t0 = performance.now();
      const bytes = await rest(m, q);
      const total = performance.now() - t0;
      for (const s of stmts) perLabel.set(s.label, [...(perLabel.get(s.label) ?? []), s.end - s.start]);
      rows.push({
        total,
        engine: inner[0] ?? 0,
        embed: embeds.reduce((a, b) => a + b, 0),
        sql: covered(stmts),
        stmts: stmts.length,
        bytes,
      });
    }
    const cpu = process.cpuUsage(cpu0);
    const srv = serverCpu() - srv0;
    const wall = performance.now() - wall0;
    const p = (f: (r: (typeof rows)[number]) => number) =>
      `${percentile(rows.map(f), 50).toFixed(1)}/${percentile(rows.map(f), 95).toFixed(1)}`;
    console.log(
      `\n${m}: total ${p((r) => r.total)} | engine ${p((r) => r.engine)} | sql (wall, union) ${p((r) => r.sql)} | embed ${p((r) => r.embed)} | outside engine ${p((r) => r.total - r.engine)} | statements ${p((r) => r.stmts)} | response bytes ${p((r) => r.bytes)}  (p50/p95 ms)`,
    );
    console.log(
      `  CPU per search: node ${((cpu.user + cpu.system) / 1000 / n).toFixed(1)} ms, postgres ${((srv * 1000) / n).toFixed(1)} ms; wall ${(wall / n).toFixed(1)} ms`,
    );
    for (const [label, xs] of [...perLabel].sort(
      (a, b) => percentile(b[1], 50) * b[1].length - percentile(a[1], 50) * a[1].length,
    ))
      console.log(
        `  ${(xs.length / n).toFixed(1)}x  p50 ${percentile(xs, 50).toFixed(2)}  p95 ${percentile(xs, 95).toFixed(2)}  ${label}`,
      );
  }
  if (args.replay) {
    // CPU of each statement of one search, each run 20 times alone.
    for (const q of questions.slice(0, 3)) {
      stmts.length = 0;
      await rest(args.replay, q);
      const once = [...stmts];
      if (args.dump)
        writeFileSync(
          args.dump,
          JSON.stringify(once.map((x) => ({ label: x.label, text: x.text, params: x.params }))),
        );
      for (const st of once) {
        const c0 = process.cpuUsage();
        const s0 = serverCpu();
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) await store.db.query(st.text!, st.params);
        const c = process.cpuUsage(c0);
        console.log(
          `replay ${st.label.slice(0, 40).padEnd(40)} wall ${((performance.now() - t0) / 20).toFixed(2)} ms, postgres CPU ${((serverCpu() - s0) * 50).toFixed(2)} ms, node CPU ${((c.user + c.system) / 20000).toFixed(2)} ms`,
        );
      }
    }
  }
  if (args.timeline) {
    // When each statement of one search ran, from the request's start (ms): the chain of round trips.
    for (const q of questions.slice(0, 3)) {
      stmts.length = 0;
      const t0 = performance.now();
      await rest(args.timeline, q);
      const total = performance.now() - t0;
      console.log(`\n${args.timeline} "${q.slice(0, 60)}" ${total.toFixed(1)} ms`);
      for (const st of [...stmts].sort((a, b) => a.start - b.start))
        console.log(
          `  ${(st.start - t0).toFixed(1).padStart(6)} -> ${(st.end - t0).toFixed(1).padStart(6)}  ${st.label.slice(0, 60)}`,
        );
    }
  }
  if (args.explain) {
    plans.record = true;
    await rest(args.explain, questions[Number(args.question)]!);
    plans.record = false;
    for (const x of plans.plans) console.log(`\n${x.sql}\n\n${x.plan}`);
  }
  await server.close();
  await engram.close();
  await store.db.close();
}

await main();
