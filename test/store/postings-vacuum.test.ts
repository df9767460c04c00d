import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

/**
 * Keyword candidates come from index-only scans of search_postings: the table is vacuumed
 * (its visibility map set) after inserts of a hundredth of its rows, not PostgreSQL's
 * default fifth, so the newest postings are read without heap fetches (migration 0018).
 */
describe.each(DRIVERS)('search_postings autovacuum [%s]', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await migrate(t.db);
  });
  afterAll(() => t.drop());

  const options = async (table: string) =>
    (
      await t.db.query<{ options: string[] | null }>(
        `SELECT reloptions AS options FROM pg_class WHERE oid = $1::regclass`,
        [table],
      )
    )[0]!.options ?? [];

  it('vacuums the postings after inserts of 1 % of their rows (at least 10,000)', async () => {
    expect(await options('search_postings')).toEqual(
      expect.arrayContaining([
        'autovacuum_vacuum_insert_scale_factor=0.01',
        'autovacuum_vacuum_insert_threshold=10000',
      ]),
    );
    // the other tables keep PostgreSQL's defaults
    expect(await options('messages')).toEqual([]);
  });
});
