/**
 * Search cost as one owner's memory grows, among many other owners (not shipped).
 *
 *   npm run bench:scale:search -- --data <locomo10.json> [--drivers postgres,pglite]
 *        [--levels 1000,10000,100000] [--others-rows 1000000] [--queries 30]
 *        [--methods keyword,vector,hybrid,agentic] [--facts 4] [--turns 15]
 *        [--concurrency 4] [--no-isolation] [--explain] [--keep] [--json]
 *
 * Stores: PostgreSQL on DATABASE_URL (or ENGRAM_TEST_DATABASE_URL), an admin URL: the
 * bench creates and drops its own databases on that server, e.g. a cluster started by
 * `.ci/start-postgres.sh`; and the embedded store in a temp dir. --levels and
 * --others-rows apply to both; without them each driver has its own defaults. Memory comes
 * from LoCoMo turns through the offline extractor and embedder and is written through the
 * engine's extraction writer, each episode's turns beside it (see corpus.ts). First the other owners' memory is written
 * (`--others-rows` episode and fact rows in all, 50 owners, in the same tenant, app and
 * project as the measured owner: the hardest case for isolation); then the owner's memory
 * grows level by level (`--levels`, episodes of the owner, each with up to `--facts` facts).
 * While a level is written the HNSW indexes are dropped; before measuring, the store is
 * opened again as `engram serve` opens it (vector indexes built as its strategy asks), then
 * analysed: ANALYZE on PostgreSQL, the embedded store's upkeep (refreshStatistics: VACUUM
 * ANALYZE of the grown tables, as its workers run it every 2 minutes) on PGlite.
 *
 * At each level every method answers `--queries` questions (top_k 10) over REST on
 * loopback, end to end (fetch + JSON), methods interleaved per question, after a warm-up that
 * asks every question once by every method and floor (so the figures are of a warm store).
 * Beside them, the floor measured in the same run: the hand-written SQL for the same
 * top-10 over the owner's facts — keyword: the GIN full-text match ordered by ts_rank;
 * vector: the pgvector cosine ORDER BY … LIMIT 10 on the vectors as the HNSW indexes hold
 * them (engine/vector-index.ts, hnswType), as the planner runs it (HNSW or exact);
 * hybrid and agentic: both of those one after the other. Figures are p50 / p95 in ms and
 * the ratio to the floor. Isolation: the same levels on a second store holding only the
 * owner; the ratio of the owner's p50 with the others present to it alone. The two stores
 * are grown to a level one after the other and then measured together, each question asked
 * of both in an order that alternates, so that the machine's drift weighs on both alike.
 *
 * --explain: at the top level, one question per method is answered once more in this
 * process, and every read statement the search runs is printed with its EXPLAIN
 * (ANALYZE, BUFFERS).
 *
 * --keep: the shared store is left in place at the end (the PostgreSQL database's URL or the
 * embedded store's data dir is logged), e.g. to try statements against the top level by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import { orQuery, queryLexemes } from '../../src/engine/search/keyword.js';
import { dropHnswIndexes, hnswType, VECTOR_TABLES } from '../../src/engine/vector-index.js';
import { type Engram, openEngram } from '../../src/engram.js';
import { startHttpServer } from '../../src/http/server.js';
import { refreshStatistics } from '../../src/store/pglite-statistics.js';
import { percentile } from '../percentile.js';
import { buildCorpus, type Corpus, prng, type WriteTarget, writeEpisodes } from './corpus.js';
import { createPostgresDatabase, dropPostgresDatabase } from './databases.js';
import { explaining } from './explain.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    drivers: { type: 'string', default: 'postgres,pglite' },
    levels: { type: 'string' },
    'others-rows': { type: 'string' },
    queries: { type: 'string', default: '30' },
    methods: { type: 'string', default: 'keyword,vector,hybrid,agentic' },
    facts: { type: 'string', default: '4' },
    turns: { type: 'string', default: '15' },
    concurrency: { type: 'string' },
    'no-isolation': { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
if (!args.data) {
  console.error(
    'usage: npm run bench:scale:search -- --data <locomo10.json> [--levels 1000,10000] [--others-rows N]',
  );
  process.exit(2);
}
const SERVER = process.env['DATABASE_URL'] ?? process.env['ENGRAM_TEST_DATABASE_URL'];
type Driver = 'postgres' | 'pglite';
const drivers = args.drivers!.split(',') as Driver[];
const levelsOf = (driver: Driver) =>
  (args.levels ?? (driver === 'postgres' ? '1000,10000,100000' : '1000,3000'))
    .split(',')
    .map(Number)
    .sort((a, b) => a - b);
const othersOf = (driver: Driver) =>
  Number(args['others-rows'] ?? (driver === 'postgres' ? 1_000_000 : 20_000));
const methods = args.methods!.split(',') as ('keyword' | 'vector' | 'hybrid' | 'agentic')[];
const nQueries = Number(args.queries);
const concurrency = Number(args.concurrency ?? 4);
const OTHER_OWNERS = 50;
const SCOPE = { tenantId: 'bench', appId: 'default', projectId: 'default' };
const OWNER = 'owner-0';

const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Figure {
  driver: Driver;
  store: 'shared' | 'alone';
  level: number;
  ownerRows: number;
  tableRows: number;
  method: string;
  p50: number;
  p95: number;
  floorP50: number;
  floorP95: number;
}

interface Store {
  engram: Engram;
  url: string;
  key: string;
}

/**
 * A throwaway store of one driver. `open` opens it as `engram serve` does (REST on
 * loopback, vector indexes prepared); `close` closes what is open; `drop` removes it.
 */
async function createStore(driver: Driver, name: string) {
  let dir: string | undefined;
  let dbUrl: string | undefined;
  if (driver === 'postgres') {
    if (!SERVER)
      throw new Error('postgres: set DATABASE_URL (an admin URL; throwaway databases are created)');
    dbUrl = await createPostgresDatabase(SERVER, name);
  } else dir = mkdtempSync(join(tmpdir(), `engram-bench-scale-${name}-`));
  const config = loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_LOG_LEVEL: 'silent',
    ENGRAM_RATE_LIMIT_RPS: '0',
    ENGRAM_WORKERS: 'false',
    ...(dbUrl ? { DATABASE_URL: dbUrl, ENGRAM_DB_POOL_MAX: String(Math.max(4, concurrency * 2)) } : {}),
    ...(dir ? { ENGRAM_DATA_DIR: dir } : {}),
  });
  let key: string | undefined;
  let current: { engram: Engram; close(): Promise<void> } | undefined;
  const close = async () => {
    await current?.close();
    current = undefined;
  };
  return {
    async open(): Promise<Store> {
      await close();
      const engram = await openEngram(config, {
        command: 'bench',
        log: silentLogger,
        workers: false,
        prepareSearch: true,
      });
      const server = await startHttpServer(engram);
      current = {
        engram,
        close: async () => {
          await server.close();
          await engram.close();
        },
      };
      key ??= (await engram.keys.create(SCOPE.tenantId)).key;
      return { engram, url: server.url, key };
    },
    close,
    /** Plans of one search per method, on a second engram over the open store's database. */
    async explain(s: Store, query: string): Promise<string[]> {
      const db = explaining(s.engram.db);
      const e = await openEngram(config, {
        command: 'bench',
        log: silentLogger,
        workers: false,
        prepareSearch: true,
        db,
      });
      const out: string[] = [];
      try {
        for (const method of methods) {
          db.plans.length = 0;
          db.record = true;
          await e.search.search(
            { tenantId: SCOPE.tenantId },
            SearchInput.parse({
              app_id: SCOPE.appId,
              project_id: SCOPE.projectId,
              user_id: OWNER,
              query,
              method,
              top_k: 10,
            }),
          );
          db.record = false;
          out.push(`### ${driver}, ${method}: ${db.plans.length} read statements`, '');
          for (const p of db.plans) out.push('```sql', p.sql, '```', '', '```', p.plan, '```', '');
        }
      } finally {
        await e.close();
      }
      return out;
    },
    async drop(keep = false) {
      await close();
      if (dbUrl && keep) log(`kept ${dbUrl}`);
      else if (dbUrl) await dropPostgresDatabase(SERVER!, dbUrl);
      if (dir && keep) log(`kept ${dir}`);
      else if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function dropHnsw(s: Store) {
  for (const t of VECTOR_TABLES) await dropHnswIndexes(s.engram.db, t);
}

async function rowCount(s: Store, owner?: string): Promise<number> {
  const cond = owner ? `AND owner_ids @> ARRAY['${owner}']::text[]` : '';
  const rows = await s.engram.db.query<{ n: number }>(
    `SELECT ((SELECT count(*) FROM episodes WHERE deleted_at IS NULL ${cond}) +
             (SELECT count(*) FROM atomic_facts WHERE deleted_at IS NULL ${cond}))::int AS n`,
  );
  return rows[0]!.n;
}

interface Query {
  text: string;
  tsq: string;
  vector: number[];
}

/**
 * What one store answers at one level: `warm` asks a question once by every method and floor
 * untimed, `ask` asks it again timed; `figures` gives the p50 / p95 of what `ask` timed.
 */
async function probe(s: Store, driver: Driver, store: Figure['store'], level: number) {
  const db = s.engram.db;
  const d = s.engram.embedder.dimensions;
  // the vector type the driver's HNSW indexes hold, so that the floor can read them
  const h = hnswType(db.driver, d);
  const where = `tenant_id = $1 AND app_id = $2 AND project_id = $3 AND owner_ids @> ARRAY[$4]::text[] AND deleted_at IS NULL`;
  const base = [SCOPE.tenantId, SCOPE.appId, SCOPE.projectId, OWNER];
  const floors = {
    keyword: (q: Query) =>
      q.tsq
        ? db.query(
            `SELECT id FROM atomic_facts WHERE ${where} AND search @@ $5::tsquery
             ORDER BY ts_rank(search, $5::tsquery) DESC LIMIT 10`,
            [...base, q.tsq],
          )
        : Promise.resolve([]),
    vector: (q: Query) =>
      db.query(
        `SELECT id FROM atomic_facts WHERE ${where} AND embedding IS NOT NULL
         ORDER BY embedding::${h}(${d}) <=> $5::vector(${d})::${h}(${d}) LIMIT 10`,
        [...base, `[${q.vector.join(',')}]`],
      ),
  };
  const rest = async (method: string, q: Query) => {
    const res = await fetch(`${s.url}/api/v2/memory/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        app_id: SCOPE.appId,
        project_id: SCOPE.projectId,
        user_id: OWNER,
        query: q.text,
        method,
        top_k: 10,
      }),
    });
    if (!res.ok) throw new Error(`search ${method}: HTTP ${res.status} ${await res.text()}`);
    await res.json();
  };
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  const lat = new Map<string, number[]>(methods.map((m) => [m, []]));
  const fl = { keyword: [] as number[], vector: [] as number[], both: [] as number[] };
  return {
    // Warm-up: caches, plans, connections. Every question once by every method and floor:
    // methods run one after another per question, so without it the first method to read a
    // question's index pages (vector, for the HNSW graphs) paid for reading them and the
    // methods after it found them in memory (at 1M rows of others, with HNSW indexes larger
    // than shared_buffers: vector p50 146 ms, hybrid 47).
    async warm(q: Query) {
      for (const m of methods) await rest(m, q);
      await floors.keyword(q);
      await floors.vector(q);
    },
    async ask(q: Query) {
      for (const m of methods) lat.get(m)!.push(await time(() => rest(m, q)));
      const k = await time(() => floors.keyword(q));
      const v = await time(() => floors.vector(q));
      fl.keyword.push(k);
      fl.vector.push(v);
      fl.both.push(k + v);
    },
    async figures(): Promise<Figure[]> {
      const ownerRows = await rowCount(s, OWNER);
      const tableRows = await rowCount(s);
      return methods.map((m) => {
        const floor = m === 'keyword' ? fl.keyword : m === 'vector' ? fl.vector : fl.both;
        const xs = lat.get(m)!;
        return {
          driver,
          store,
          level,
          ownerRows,
          tableRows,
          method: m,
          p50: percentile(xs, 50),
          p95: percentile(xs, 95),
          floorP50: percentile(floor, 50),
          floorP95: percentile(floor, 95),
        };
      });
    },
  };
}

/**
 * The stores of one level measured together: every store warmed, then each question asked
 * of every store, the stores' order alternating from one question to the next, so that a
 * change in the machine's speed during the run (on a shared machine, a third within minutes)
 * weighs on both stores alike instead of on whichever was measured later.
 */
async function measure(probes: Awaited<ReturnType<typeof probe>>[], queries: Query[]): Promise<Figure[]> {
  for (const q of queries) for (const p of probes) await p.warm(q);
  for (const [i, q] of queries.entries()) {
    const order = i % 2 ? [...probes].reverse() : probes;
    for (const p of order) await p.ask(q);
  }
  const out: Figure[] = [];
  for (const p of probes) out.push(...(await p.figures()));
  return out;
}

/**
 * A store of the bench, grown level by level: the other owners' rows written once
 * (`others`), then the owner's episodes up to each level, the store reopened as `engram
 * serve` opens it and analysed.
 */
async function grower(driver: Driver, store: Figure['store'], corpus: Corpus, others: number) {
  const st = await createStore(driver, store);
  let s: Store;
  try {
    s = await st.open();
  } catch (err) {
    // not yet in the run's list of stores, which drops them at its end
    await st.drop();
    throw err;
  }
  const write = (w: WriteTarget, from: number, to: number) =>
    writeEpisodes(s.engram.db, corpus, w, from, to, concurrency);
  const rowsPerEpisode =
    1 + corpus.templates.reduce((n, t) => n + t.extraction.episode.facts.length, 0) / corpus.templates.length;
  let written = 0;
  return {
    store,
    st,
    get open() {
      return s;
    },
    async writeOthers() {
      if (others <= 0) return;
      await dropHnsw(s);
      const perOwner = Math.ceil(others / rowsPerEpisode / OTHER_OWNERS);
      const t0 = performance.now();
      for (let o = 1; o <= OTHER_OWNERS; o++) await write({ ...SCOPE, owner: `owner-${o}` }, 0, perOwner);
      log(
        `${driver} ${store}: ${await rowCount(s)} rows of ${OTHER_OWNERS} other owners written in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
    },
    async grow(level: number) {
      await dropHnsw(s);
      const t0 = performance.now();
      await write({ ...SCOPE, owner: OWNER }, written, level);
      written = level;
      const t1 = performance.now();
      s = await st.open();
      // The embedded store has no autovacuum: its workers' upkeep (VACUUM ANALYZE of grown
      // tables, engram.ts) is what a served store has had within minutes of growing.
      if (driver === 'pglite') await refreshStatistics(s.engram.db);
      else await s.engram.db.query('ANALYZE');
      log(
        `${driver} ${store}: owner at ${level} episodes (written in ${((t1 - t0) / 1000).toFixed(0)} s, reopened with indexes in ${((performance.now() - t1) / 1000).toFixed(0)} s)`,
      );
    },
  };
}

/**
 * One driver's run: the shared store (the owner among `others` rows of other owners) and,
 * for isolation, a store of the owner alone, grown to each level one after the other and
 * then measured together at that level.
 */
async function run(driver: Driver, corpus: Corpus, others: number, isolation: boolean, plans?: string[]) {
  const stores: Awaited<ReturnType<typeof grower>>[] = [];
  const out: Figure[] = [];
  try {
    stores.push(await grower(driver, 'shared', corpus, others));
    if (isolation) stores.push(await grower(driver, 'alone', corpus, 0));
    const s0 = stores[0]!.open;
    const rand = prng(42);
    const picked = [...corpus.questions].sort(() => rand() - 0.5).slice(0, nQueries);
    const queries: Query[] = [];
    const vectors = await s0.engram.embedder.embed(picked);
    for (const [i, text] of picked.entries())
      queries.push({ text, tsq: orQuery(await queryLexemes(s0.engram.db, text)), vector: vectors[i]! });
    await stores[0]!.writeOthers();
    for (const level of levelsOf(driver)) {
      for (const g of stores) await g.grow(level);
      const probes = [];
      for (const g of stores) probes.push(await probe(g.open, driver, g.store, level));
      out.push(...(await measure(probes, queries)));
    }
    if (plans) plans.push(...(await stores[0]!.st.explain(stores[0]!.open, queries[0]!.text)));
  } finally {
    for (const g of stores) await g.st.drop(args.keep && g.store === 'shared');
  }
  return out;
}

function report(driver: Driver, figs: Figure[], corpus: Corpus): string[] {
  const f1 = (x: number) => x.toFixed(1);
  const levels = levelsOf(driver);
  const lines = [
    `## ${driver === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)'}: ${OTHER_OWNERS} other owners (${othersOf(driver)} rows asked) in the same tenant, app and project; an episode ≈ ${corpus.turnsPerEpisode.toFixed(1)} messages, stored beside it as extracted turns; top_k 10; ${nQueries} questions; ms`,
    '',
    '| owner episodes | owner rows | table rows | method | p50 | p95 | floor p50 | floor p95 | p50 / floor | p95 / floor | p50 / p50 at first level | p50 / p50 alone |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const shared = figs.filter((f) => f.store === 'shared');
  for (const f of shared) {
    const first = shared.find((g) => g.method === f.method && g.level === levels[0]);
    const alone = figs.find((g) => g.store === 'alone' && g.method === f.method && g.level === f.level);
    lines.push(
      `| ${f.level} | ${f.ownerRows} | ${f.tableRows} | ${f.method} | ${f1(f.p50)} | ${f1(f.p95)} | ${f1(f.floorP50)} | ${f1(f.floorP95)} | ${(f.p50 / f.floorP50).toFixed(2)} | ${(f.p95 / f.floorP95).toFixed(2)} | ${first ? (f.p50 / first.p50).toFixed(2) : ''} | ${alone ? (f.p50 / alone.p50).toFixed(2) : ''} |`,
    );
  }
  const alone = figs.filter((f) => f.store === 'alone');
  if (alone.length) {
    lines.push(
      '',
      'The owner alone in a store:',
      '',
      '| owner episodes | method | p50 | p95 | floor p50 | floor p95 | p50 / floor |',
      '|---|---|---|---|---|---|---|',
    );
    for (const f of alone)
      lines.push(
        `| ${f.level} | ${f.method} | ${f1(f.p50)} | ${f1(f.p95)} | ${f1(f.floorP50)} | ${f1(f.floorP95)} | ${(f.p50 / f.floorP50).toFixed(2)} |`,
      );
  }
  return lines;
}

async function main() {
  // The corpus is built once with the offline extractor and embedder of a throwaway embedded engram.
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-corpus-'));
  const config = loadConfig({ ENGRAM_DATA_DIR: dir, ENGRAM_LOG_LEVEL: 'silent', ENGRAM_WORKERS: 'false' });
  const e = await openEngram(config, { command: 'bench', log: silentLogger, workers: false });
  let corpus: Corpus;
  try {
    corpus = await buildCorpus(resolve(args.data!), e.extractor, e.embedder, {
      turnsPerSegment: Number(args.turns),
      maxFacts: Number(args.facts),
    });
  } finally {
    await e.close();
    rmSync(dir, { recursive: true, force: true });
  }
  log(`corpus: ${corpus.templates.length} episode templates, ${corpus.questions.length} questions`);
  const all: Figure[] = [];
  for (const driver of drivers) {
    const plans: string[] = [];
    const figs = await run(
      driver,
      corpus,
      othersOf(driver),
      !args['no-isolation'],
      args.explain ? plans : undefined,
    );
    all.push(...figs);
    if (!args.json) console.log(`${[...report(driver, figs, corpus), '', ...plans].join('\n')}\n`);
  }
  if (args.json) console.log(JSON.stringify({ figures: all }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
