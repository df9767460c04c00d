import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import type { Db, Sql } from '../../src/core/db.js';
import { silentLogger } from '../../src/core/log.js';
import { bind, episodeTarget, factTarget, messageTarget } from '../../src/engine/search/scope.js';
import { SearchService } from '../../src/engine/search/service.js';
import { nearest } from '../../src/engine/search/vector.js';
import {
  HNSW_VISIT_COST,
  hnswIndexName,
  hnswType,
  VECTOR_TABLES,
  VectorConfigError,
  VectorIndex,
} from '../../src/engine/vector-index.js';
import { openPostgres } from '../../src/store/postgres.js';
import { DRIVERS } from '../helpers/drivers.js';
import { HashEmbedder } from '../helpers/hash-embedder.js';
import { type Fixture, openFixture, planLines, seedEpisode, seedMessage } from './seed.js';

describe.each(DRIVERS)('vector set-up [%s]', (driver) => {
  let f: Fixture;
  /** This driver's HNSW index of a table for the fixture's 64 dimensions (hnswType). */
  const name = (table: (typeof VECTOR_TABLES)[number]) => hnswIndexName(table, 64, hnswType(driver, 64));
  beforeAll(async () => {
    f = await openFixture(driver);
  });
  afterAll(() => f.database.drop());

  const indexes = async () =>
    (
      await f.db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE indexname LIKE '%embedding_hnsw%' ORDER BY indexname`,
      )
    ).map((r) => r.indexname);

  it('records the embedder id and dimension on first start', async () => {
    const rows = await f.db.query<{ value: unknown }>(
      `SELECT value FROM engram_settings WHERE tenant_id = '' AND key = 'embedding'`,
    );
    expect(rows[0]!.value).toEqual({ id: 'test:hash-64', dimensions: 64 });
    expect(f.index.dimensions).toBe(64);
    // the same embedder starts again without complaint
    await expect(VectorIndex.setup(f.db, f.embedder, silentLogger)).resolves.toBeInstanceOf(VectorIndex);
  });

  /**
   * The plan of a nearest read with sequential scans off: a table this small is otherwise
   * read by one, so this shows the approximate branch.
   */
  const approximatePlan = (sql: string, values: unknown[]) =>
    f.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return (await planLines(tx, sql, values, 'COSTS OFF')).join('\n');
    });

  /**
   * A store of an earlier version (by default one single-precision HNSW index over every row
   * of `table`, in place of this version's), then a start: the vector index set up, and the
   * table's HNSW indexes after it.
   */
  const setupOverEarlierIndex = async (
    table: string,
    current: string,
    legacy = `CREATE INDEX IF NOT EXISTS ${table}_embedding_hnsw_64 ON ${table} USING hnsw ((embedding::vector(64)) vector_cosine_ops)`,
  ) => {
    await f.db.query(`DROP INDEX IF EXISTS ${current}`);
    await f.db.query(legacy);
    const index = await VectorIndex.setup(f.db, f.embedder, silentLogger, {
      pgliteHnswMinRows: 0,
      exactMaxRows: 0,
    });
    const indexes = await f.db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname LIKE '%hnsw%'`,
      [table],
    );
    return { index, indexes };
  };

  it('builds HNSW expression indexes per driver strategy', async () => {
    if (driver === 'postgres') {
      expect(await indexes()).toEqual([
        name('agent_cases'),
        name('agent_skills'),
        name('atomic_facts'),
        name('episodes'),
        name('kb_topics'),
        name('messages'),
      ]);
      const def = await f.db.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE indexname = '${name('episodes')}'`,
      );
      expect(def[0]!.indexdef).toMatch(
        /hnsw \(\(\(?embedding\)?::halfvec\(64\)\) halfvec_cosine_ops\) WHERE \(deleted_at IS NULL\)$/,
      );
    } else {
      // PGlite scans exactly until a table outgrows the threshold
      expect(await indexes()).toEqual([]);
      await seedEpisode(f, { owners: ['u'], subject: 'first', facts: ['one', 'two'] });
      const small = await VectorIndex.setup(f.db, f.embedder, silentLogger, { pgliteHnswMinRows: 1 });
      expect(small.hasHnsw('atomic_facts')).toBe(true);
      expect(small.hasHnsw('episodes')).toBe(false);
      expect(await indexes()).toEqual([name('atomic_facts')]);
    }
  });

  it('scans an owner exactly up to 1,000 documents of a kind on both drivers; PGlite indexes a table above 10,000 rows and reads HNSW with 200 candidates', async () => {
    const index = await VectorIndex.setup(f.db, f.embedder, silentLogger);
    expect(index.exactMaxRows).toBe(1_000);
    expect(index.pgliteHnswMinRows).toBe(10_000);
    expect(index.hnswVisitCost).toBe(HNSW_VISIT_COST[driver]);
    const ef = await f.db.query<{ ef: string; scan: string }>(
      `SELECT current_setting('hnsw.ef_search') AS ef, current_setting('hnsw.iterative_scan') AS scan`,
    );
    expect(ef[0]).toEqual({ ef: driver === 'pglite' ? '200' : '100', scan: 'relaxed_order' });
  });

  it('the approximate path (HNSW + iterative scan) still honours a selective filter', async () => {
    const index = await VectorIndex.setup(f.db, f.embedder, silentLogger, {
      pgliteHnswMinRows: 0,
      exactMaxRows: 0,
    });
    expect(index.hasHnsw('episodes')).toBe(true);
    for (let i = 0; i < 30; i++)
      await seedEpisode(f, {
        owners: ['v'],
        session: 'many',
        subject: `garden roses ${i}`,
        facts: [`V grew roses ${i}.`],
      });
    const rare = await seedEpisode(f, {
      owners: ['v'],
      session: 'rare',
      subject: 'garden tulips',
      facts: ['V grew tulips.'],
    });
    const s = new SearchService({ db: f.db, embedder: f.embedder, log: silentLogger, vectorIndex: index });
    const r = await s.search(
      { tenantId: 'tenant-a' },
      SearchInput.parse({
        user_id: 'v',
        query: 'garden roses',
        method: 'vector',
        top_k: 1,
        filters: { session_id: 'rare' },
      }),
    );
    expect(r.episodes.map((e) => e.id)).toEqual([rare.id]);
    const all = await s.search(
      { tenantId: 'tenant-a' },
      SearchInput.parse({ user_id: 'v', query: 'garden roses', method: 'vector', top_k: 5 }),
    );
    expect(all.episodes).toHaveLength(5);
    const scores = all.episodes.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('the nearest read chooses between HNSW and the exact scan from one read of the owner statistics', async () => {
    for (let i = 0; i < 3; i++)
      await seedEpisode(f, { owners: ['w'], subject: `harbour boats ${i}`, facts: [] });
    const scope = {
      tenantId: 'tenant-a',
      appId: 'default',
      projectId: 'default',
      ownerId: 'w',
      filters: undefined,
    };
    const vector = (await f.embedder.embed(['harbour boats']))[0]!;
    const run = async (exactMaxRows: number, hnswVisitCost?: number) => {
      const index = await VectorIndex.setup(f.db, f.embedder, silentLogger, {
        pgliteHnswMinRows: 0,
        exactMaxRows,
        ...(hnswVisitCost !== undefined ? { hnswVisitCost } : {}),
      });
      expect(index.hasHnsw('episodes')).toBe(true);
      const t = episodeTarget(scope);
      const p = bind(t);
      const sql = `SELECT id FROM ${nearest(index, t, { vector, limit: 2 }, p)} v`;
      const plan = await planLines(f.db, sql, p.values, 'ANALYZE, COSTS OFF');
      // the node under the exact branch's one-time filter, run or not
      const exactBranch = plan[plan.findIndex((l) => /One-Time Filter: \(NOT /.test(l)) + 1]!;
      const ids = (await f.db.query<{ id: string }>(sql, p.values)).map((r) => r.id);
      return { plan: plan.join('\n'), exactRan: !/never executed/.test(exactBranch), ids };
    };
    const exact = await run(1_000);
    const approximate = await run(0);
    // above exactMaxRows, an HNSW entry dear enough against a row of the exact scan (the
    // table's row estimate taken: unanalysed, it reads as 0 rows and HNSW always wins)
    await f.db.query('ANALYZE episodes');
    const dear = await run(0, 1e9);
    for (const { plan } of [exact, approximate, dear])
      expect(plan.match(/on search_counts/g), plan).toHaveLength(1);
    expect(exact.exactRan, exact.plan).toBe(true);
    expect(approximate.exactRan, approximate.plan).toBe(false);
    expect(dear.exactRan, dear.plan).toBe(true);
    expect(dear.ids).toEqual(exact.ids);
    expect(exact.ids).toHaveLength(2);
    expect(approximate.ids).toHaveLength(2);
  });

  it('indexes turns once extracted and live, replaces a whole-table turn index, and reads turns through it', async () => {
    const turn = async (content: string, state: string) => {
      const id = await seedMessage(f, { session: 'dock', sender: 'x', content, state });
      const v = (await f.embedder.embed([content]))[0]!;
      await f.db.query('UPDATE messages SET embedding = $2::vector WHERE tenant_id = $1 AND id = $3', [
        'tenant-a',
        `[${v.join(',')}]`,
        id,
      ]);
      return id;
    };
    const extracted = [
      await turn('sailing boats at the dock', 'extracted'),
      await turn('boats and sails', 'extracted'),
    ];
    await turn('sailing boats at the dock today', 'buffered');
    const gone = await turn('sailing boats, deleted', 'extracted');
    await f.db.query('UPDATE messages SET deleted_at = now() WHERE tenant_id = $1 AND id = $2', [
      'tenant-a',
      gone,
    ]);
    const { index, indexes: turnIndexes } = await setupOverEarlierIndex('messages', name('messages'));
    expect(turnIndexes.map((r) => r.indexname)).toEqual([name('messages')]);
    expect(turnIndexes[0]!.indexdef).toMatch(/WHERE \(+state = 'extracted'.*AND \(deleted_at IS NULL\)\)$/);
    expect(index.hasHnsw('messages')).toBe(true);

    const t = messageTarget(
      { tenantId: 'tenant-a', appId: 'default', projectId: 'default', ownerId: 'x', filters: undefined },
      'extracted',
    );
    const p = bind(t);
    const vector = (await f.embedder.embed(['sailing boats']))[0]!;
    const sql = `SELECT id FROM ${nearest(index, t, { vector, limit: 5 }, p)} v`;
    const plan = await approximatePlan(sql, p.values);
    expect(plan).toContain(`Index Scan using ${name('messages')}`);
    const ids = (await f.db.query<{ id: string }>(sql, p.values)).map((r) => r.id);
    expect([...ids].sort()).toEqual([...extracted].sort());
  });

  it('indexes live facts only, replaces a whole-table fact index, and reads facts through it', async () => {
    const kept = await seedEpisode(f, {
      owners: ['y'],
      subject: 'lighthouse',
      facts: ['Y painted the lighthouse.', 'Y visited the lighthouse at dawn.'],
    });
    const gone = await seedEpisode(f, {
      owners: ['y'],
      subject: 'lighthouse',
      facts: ['Y sketched a lighthouse.'],
    });
    const { index, indexes: factIndexes } = await setupOverEarlierIndex('atomic_facts', name('atomic_facts'));
    expect(factIndexes.map((r) => r.indexname)).toEqual([name('atomic_facts')]);
    expect(factIndexes[0]!.indexdef).toMatch(/WHERE \(deleted_at IS NULL\)$/);
    // a delete's new row version is outside the index's predicate: PostgreSQL inserts nothing
    await f.db.query('UPDATE atomic_facts SET deleted_at = now() WHERE tenant_id = $1 AND id = $2', [
      'tenant-a',
      gone.factIds[0],
    ]);

    const t = factTarget({
      tenantId: 'tenant-a',
      appId: 'default',
      projectId: 'default',
      ownerId: 'y',
      filters: undefined,
    });
    const p = bind(t);
    const vector = (await f.embedder.embed(['lighthouse']))[0]!;
    const sql = `SELECT id FROM ${nearest(index, t, { vector, limit: 5 }, p)} v`;
    const plan = await approximatePlan(sql, p.values);
    expect(plan).toContain(`Index Scan using ${name('atomic_facts')}`);
    const ids = (await f.db.query<{ id: string }>(sql, p.values)).map((r) => r.id);
    expect([...ids].sort()).toEqual([...kept.factIds].sort());
  });

  it("replaces an index of the other vector type by this driver's (on PostgreSQL, the previous version's single-precision one by half precision); hits through it score as the exact scan scores them", async () => {
    for (let i = 0; i < 6; i++)
      await seedEpisode(f, {
        owners: ['h'],
        subject: `orchard apples ${i}`,
        facts: [`H picked apples ${i}.`],
      });
    const type = hnswType(driver, 64);
    expect(type).toBe(driver === 'postgres' ? 'halfvec' : 'vector');
    const other = type === 'halfvec' ? 'vector' : 'halfvec';
    const { index, indexes: episodeIndexes } = await setupOverEarlierIndex(
      'episodes',
      name('episodes'),
      `CREATE INDEX ${hnswIndexName('episodes', 64, other)} ON episodes USING hnsw ((embedding::${other}(64)) ${other}_cosine_ops) WHERE deleted_at IS NULL`,
    );
    expect(episodeIndexes.map((r) => r.indexname)).toEqual([name('episodes')]);
    expect(episodeIndexes[0]!.indexdef).toContain(
      `::${type}(64)) ${type}_cosine_ops) WHERE (deleted_at IS NULL)`,
    );
    const t = episodeTarget({
      tenantId: 'tenant-a',
      appId: 'default',
      projectId: 'default',
      ownerId: 'h',
      filters: undefined,
    });
    const p = bind(t);
    const vector = (await f.embedder.embed(['orchard apples']))[0]!;
    const sql = `SELECT id, d FROM ${nearest(index, t, { vector, limit: 4 }, p)} v`;
    // the approximate branch as the index serves it (no sort to fall back on: the table was
    // analysed above, and this small a table is otherwise read and sorted)
    const throughIndex = <T>(fn: (tx: Sql) => Promise<T>) =>
      f.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        await tx.query('SET LOCAL enable_sort = off');
        return fn(tx);
      });
    const plan = await throughIndex(async (tx) =>
      (await planLines(tx, sql, p.values, 'COSTS OFF')).join('\n'),
    );
    expect(plan).toContain(`Index Scan using ${name('episodes')}`);
    // the distances returned through the index are the stored vectors' own, as an exact read gives them
    const found = await throughIndex((tx) => tx.query<{ id: string; d: number }>(sql, p.values));
    expect(found).toHaveLength(4);
    const exact = await f.db.query<{ id: string; d: number }>(
      `SELECT id, (embedding::vector(64) <=> $2::vector(64))::float8 AS d FROM episodes
       WHERE tenant_id = 'tenant-a' AND id = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))`,
      [JSON.stringify(found.map((r) => r.id)), `[${vector.join(',')}]`],
    );
    const byId = new Map(exact.map((r) => [r.id, Number(r.d)]));
    for (const r of found) expect(Number(r.d)).toBe(byId.get(r.id));
  });

  it('indexes and searches vectors of 3,072 dimensions (past the 2,000 an HNSW index of single-precision vectors takes)', async () => {
    const wide = await openFixture(driver, {}, 3_072);
    try {
      const apples = await seedEpisode(wide, {
        owners: ['k'],
        subject: 'orchard apples',
        facts: ['K picked apples.'],
      });
      await seedEpisode(wide, { owners: ['k'], subject: 'harbour boats', facts: ['K sailed a boat.'] });
      const index = await VectorIndex.setup(wide.db, wide.embedder, silentLogger, {
        pgliteHnswMinRows: 0,
        exactMaxRows: 0,
      });
      expect(VECTOR_TABLES.filter((t) => index.hasHnsw(t))).toEqual(
        expect.arrayContaining(['episodes', 'atomic_facts']),
      );
      const s = new SearchService({
        db: wide.db,
        embedder: wide.embedder,
        log: silentLogger,
        vectorIndex: index,
      });
      const r = await s.search(
        { tenantId: 'tenant-a' },
        SearchInput.parse({ user_id: 'k', query: 'orchard apples', method: 'vector', top_k: 1 }),
      );
      expect(r.episodes.map((e) => e.id)).toEqual([apples.id]);
    } finally {
      await wide.database.drop();
    }
  });

  it('processes starting together build each vector index once, none failing, each then using them', async () => {
    const hnsw = async () =>
      (
        await f.db.query<{ indexname: string }>(
          `SELECT indexname FROM pg_indexes WHERE indexname LIKE '%embedding_hnsw%' ORDER BY indexname`,
        )
      ).map((r) => r.indexname);
    // embedded rows, so that the embedded store (threshold 0 below) indexes their tables too
    await seedEpisode(f, { owners: ['z'], subject: 'lighthouse keepers', facts: ['Z kept a lighthouse.'] });
    await VectorIndex.setup(f.db, f.embedder, silentLogger, { pgliteHnswMinRows: 0 });
    const before = await hnsw();
    // PostgreSQL: four processes' own connection pools (one of a single connection); the
    // embedded store has one process, so there the four set-ups share its store
    const handles: Db[] =
      driver === 'postgres'
        ? [
            openPostgres(f.database.url!, { max: 1 }),
            ...[1, 2, 3].map(() => openPostgres(f.database.url!, { max: 3 })),
          ]
        : [f.db, f.db, f.db, f.db];
    try {
      for (let round = 0; round < 3; round++) {
        for (const name of await hnsw()) await f.db.query(`DROP INDEX ${name}`);
        // an earlier version's whole-table turn and fact indexes, replaced at start
        if (round === 2)
          for (const table of ['messages', 'atomic_facts'])
            await f.db.query(
              `CREATE INDEX ${table}_embedding_hnsw_64 ON ${table} USING hnsw ((embedding::vector(64)) vector_cosine_ops)`,
            );
        const starts = await Promise.allSettled(
          handles.map((db) => VectorIndex.setup(db, f.embedder, silentLogger, { pgliteHnswMinRows: 0 })),
        );
        expect(starts.filter((s) => s.status === 'rejected')).toEqual([]);
        expect(await hnsw()).toEqual(before);
        const indexed = VECTOR_TABLES.filter((t) => before.includes(name(t)));
        expect(indexed.length).toBeGreaterThan(0);
        for (const s of starts) {
          const index = (s as PromiseFulfilledResult<VectorIndex>).value;
          expect(VECTOR_TABLES.filter((t) => index.hasHnsw(t))).toEqual(indexed);
        }
      }
    } finally {
      if (driver === 'postgres') await Promise.all(handles.map((db) => db.close()));
    }
  });

  it('keeps every embedding in its row (storage MAIN), not in the TOAST table first', async () => {
    for (const table of VECTOR_TABLES) {
      const rows = await f.db.query<{ attstorage: string }>(
        `SELECT attstorage FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding'`,
        [table],
      );
      expect([table, rows[0]!.attstorage]).toEqual([table, 'm']);
    }
  });

  it('a different embedder on a database with vectors fails with both names and `engram reindex`', async () => {
    const other = new HashEmbedder(32);
    const err = await VectorIndex.setup(f.db, other, silentLogger).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VectorConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('"test:hash-64" (64 dimensions)');
    expect(msg).toContain('"test:hash-32" (32 dimensions)');
    expect(msg).toContain('engram reindex');
  });
});

describe.each(DRIVERS)('vector set-up on an empty database [%s]', (driver) => {
  it('lets a new embedder take over while no vector is stored', async () => {
    const f = await openFixture(driver);
    try {
      const other = new HashEmbedder(16);
      const index = await VectorIndex.setup(f.db, other, silentLogger);
      expect(index.dimensions).toBe(16);
      const rows = await f.db.query<{ value: unknown }>(
        `SELECT value FROM engram_settings WHERE key = 'embedding'`,
      );
      expect(rows[0]!.value).toEqual({ id: 'test:hash-16', dimensions: 16 });
    } finally {
      await f.database.drop();
    }
  });
});
