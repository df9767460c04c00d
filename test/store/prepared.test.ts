import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED_MAX } from '../../src/store/pglite-prepared.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

/**
 * The embedded driver runs statements as named prepared statements, one per SQL text
 * (store/pglite-prepared.ts). Whatever the driver, a statement run again gives what it
 * gives the first time, with parameters of every kind the engine binds, errors keep their
 * SQLSTATE and leave the session usable, and a statement keeps working after its table
 * changes shape.
 */
describe.each(DRIVERS)('statements run again (%s)', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await t.db.query('CREATE EXTENSION IF NOT EXISTS vector');
    await t.db.query(`CREATE TABLE items (id text PRIMARY KEY, n int, doc jsonb, v vector(3), at bigint)`);
  });
  afterAll(() => t.drop());

  const insert = `INSERT INTO items (id, n, doc, v, at) VALUES ($1, $2, $3::jsonb, $4::vector(3), $5) RETURNING id`;
  const read = `SELECT id, n, doc, (v <=> $2::vector(3))::float8 AS d, at FROM items
                WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id`;

  it('binds text, numbers, jsonb, vectors and nulls the same way every run', async () => {
    for (let i = 0; i < 8; i++)
      await t.db.query(insert, [
        `i${i}`,
        i % 3 === 0 ? null : i,
        JSON.stringify({ k: i, s: `x'${i}` }),
        `[${i + 1},1,0]`,
        1_700_000_000_000 + i,
      ]);
    const ids = JSON.stringify(['i1', 'i3', 'i5', 'nope']);
    const first = await t.db.query(read, [ids, '[1,0,0]']);
    expect(first.map((r) => r['id'])).toEqual(['i1', 'i3', 'i5']);
    expect(first[1]).toMatchObject({ id: 'i3', n: null, doc: { k: 3, s: "x'3" } });
    expect(Number(first[2]!['at'])).toBe(1_700_000_000_005);
    for (let i = 0; i < 7; i++) expect(await t.db.query(read, [ids, '[1,0,0]'])).toEqual(first);
    const other = await t.db.query(read, [JSON.stringify(['i2']), '[0,1,0]']);
    expect(other).toHaveLength(1);
    expect(other[0]!['d']).not.toBe(first[0]!['d']);
  });

  it('keeps the SQLSTATE of an error and the session usable', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(t.db.query(insert, ['i1', 1, '{}', '[1,1,1]', 1])).rejects.toMatchObject({
        code: '23505',
      });
      await expect(t.db.query(read, ['not json', '[1,0,0]'])).rejects.toMatchObject({ code: '22P02' });
      await expect(t.db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    }
    expect(await t.db.query(read, [JSON.stringify(['i1']), '[1,0,0]'])).toHaveLength(1);
    expect(await t.db.transaction((tx) => tx.query('SELECT count(*)::int AS n FROM items'))).toEqual([
      { n: 8 },
    ]);
  });

  it('runs a statement again after its table changed shape', async () => {
    const all = `SELECT * FROM items WHERE id = $1`;
    expect(Object.keys((await t.db.query(all, ['i1']))[0]!)).not.toContain('extra');
    await t.db.query(`ALTER TABLE items ADD COLUMN extra text DEFAULT 'e'`);
    expect((await t.db.query(all, ['i1']))[0]).toMatchObject({ id: 'i1', extra: 'e' });
  });
});

describe('embedded prepared statements', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase('pglite');
  });
  afterAll(() => t.drop());

  const prepared = async () =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements'))[0]!.n;

  it('prepares a text once and keeps at most PREPARED_MAX of them', async () => {
    const before = await prepared();
    for (let i = 0; i < 5; i++) await t.db.query('SELECT $1::int + 1 AS x', [i]);
    expect(await prepared()).toBe(before + 1);
    for (let i = 0; i < PREPARED_MAX + 20; i++) await t.db.query(`SELECT ${i} AS x`);
    expect(await prepared()).toBeLessThanOrEqual(PREPARED_MAX);
  });

  it('plans every run of a vector statement for its parameters, and lets the others keep a generic plan', async () => {
    await t.db.query('CREATE EXTENSION IF NOT EXISTS vector');
    await t.db.query(`CREATE TABLE pts (id int PRIMARY KEY, v vector(2))`);
    await t.db.query(
      `INSERT INTO pts SELECT g, ARRAY[g, 1]::real[]::vector(2) FROM generate_series(1, 50) g`,
    );
    const byId = `SELECT id FROM pts WHERE id = $1`;
    const nearest = `SELECT id FROM pts ORDER BY v <=> $1::vector(2), id LIMIT 3`;
    const mode = `SELECT current_setting('plan_cache_mode') AS m, ('[1,0]'::vector <=> $1::vector) IS NOT NULL AS x`;
    for (let i = 1; i <= 12; i++) {
      expect(await t.db.query(byId, [i])).toEqual([{ id: i }]);
      expect(await t.db.query(nearest, [`[${i},1]`])).toHaveLength(3);
      // the setting each kind of statement runs under, read by a statement of that kind
      expect(await t.db.query(mode, ['[0,1]'])).toEqual([{ m: 'force_custom_plan', x: true }]);
      expect(await t.db.query(`SELECT current_setting('plan_cache_mode') AS m`)).toEqual([{ m: 'auto' }]);
    }
    const plans = await t.db.query<{ statement: string; generic_plans: number; custom_plans: number }>(
      `SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements
       WHERE statement = ANY ($1) ORDER BY statement`,
      [[byId, nearest]],
    );
    expect(plans).toEqual([
      { statement: nearest, generic_plans: 0, custom_plans: 12 },
      { statement: byId, generic_plans: expect.any(Number), custom_plans: expect.any(Number) },
    ]);
    expect(plans[1]!.generic_plans).toBeGreaterThan(0);
  });
});
