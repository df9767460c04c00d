import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { refreshStatistics } from '../../src/store/pglite-statistics.js';
import { createTestDatabase, type TestDatabase } from '../helpers/drivers.js';

/**
 * PGlite has no autovacuum: without this upkeep its planner never has statistics and its
 * index-only scans always visit the heap. refreshStatistics does what autovacuum would,
 * for the tables that were never analysed or have grown since.
 */
describe('PGlite statistics upkeep', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('pglite');
    await migrate(t.db);
  });
  afterAll(() => t.drop());

  const stats = async (table: string) =>
    (
      await t.db.query<{ tuples: number; analysed: boolean }>(
        `SELECT c.reltuples::float8 AS tuples,
                EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = 'public' AND s.tablename = c.relname) AS analysed
         FROM pg_class c WHERE c.oid = $1::regclass`,
        [table],
      )
    )[0]!;

  const addMessages = (from: number, n: number) =>
    t.db.query(
      `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, role, content, ts, state)
       SELECT 't', 'm' || g, 'a', 'p', 's', 'u', 'user', 'turn number ' || g, g, 'queued'
       FROM generate_series($1::int, $2::int) g`,
      [from, from + n - 1],
    );

  it('analyses every table that has no statistics, then nothing until one grows', async () => {
    await addMessages(1, 2000);
    expect((await stats('messages')).analysed).toBe(false);
    const first = await refreshStatistics(t.db);
    expect(first).toContain('messages');
    expect(await stats('messages')).toEqual({ tuples: 2000, analysed: true });
    // nothing changed: nothing to do
    expect(await refreshStatistics(t.db)).toEqual([]);
    // a small growth is not worth a pass; a table grown by more than a fifth is
    await addMessages(2001, 10);
    expect(await refreshStatistics(t.db)).toEqual([]);
    await addMessages(2011, 1000);
    expect(await refreshStatistics(t.db)).toEqual(['messages']);
    expect((await stats('messages')).tuples).toBe(3010);
  });

  it('analyses a table whose size an index build recorded but that has no statistics', async () => {
    await t.db.query('CREATE TABLE size_probe (id int PRIMARY KEY, name text)');
    await t.db.query(`INSERT INTO size_probe SELECT g, 'name ' || g FROM generate_series(1, 500) g`);
    await t.db.query('CREATE INDEX size_probe_name ON size_probe (name)');
    expect(await stats('size_probe')).toEqual({ tuples: 500, analysed: false });
    expect(await refreshStatistics(t.db)).toContain('size_probe');
    expect(await stats('size_probe')).toEqual({ tuples: 500, analysed: true });
    expect(await refreshStatistics(t.db)).toEqual([]);
  });

  it('leaves the visibility map set, so index-only scans skip the heap', async () => {
    await t.db.query('SET enable_seqscan = off');
    await t.db.query('SET enable_bitmapscan = off');
    try {
      const plan = (
        await t.db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM messages WHERE tenant_id = 't' AND id > 'm2'`,
        )
      )
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/Index Only Scan using messages_pkey/);
      expect(plan).toMatch(/Heap Fetches: 0/);
    } finally {
      await t.db.query('RESET enable_seqscan');
      await t.db.query('RESET enable_bitmapscan');
    }
  });
});
