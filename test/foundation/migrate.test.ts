import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedMigrations, migrate, splitStatements } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

describe('splitStatements', () => {
  it('splits on semicolons outside quotes, dollar quotes and comments', () => {
    const parts = splitStatements(`-- a; comment
      CREATE TABLE a (x text DEFAULT ';');
      DO $$ BEGIN PERFORM 1; END $$;
      SELECT 1`);
    expect(parts).toEqual([
      "CREATE TABLE a (x text DEFAULT ';')",
      'DO $$ BEGIN PERFORM 1; END $$',
      'SELECT 1',
    ]);
  });
});

describe.each(DRIVERS)('migrations [%s]', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
  });
  afterAll(() => t.drop());

  it('applies every migration once and is idempotent', async () => {
    const first = await migrate(t.db);
    expect(first).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(t.db)).toEqual([]);
    expect(await appliedMigrations(t.db)).toEqual(MIGRATIONS.map((m) => m.version));
    const ext = await t.db.query<{ extname: string }>(
      `SELECT extname FROM pg_extension WHERE extname = 'vector'`,
    );
    expect(ext).toHaveLength(1);
  });

  it('leads every table with tenant_id', async () => {
    const rows = await t.db.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
       WHERE c.table_schema = 'public' AND c.ordinal_position = 1 AND t.table_type = 'BASE TABLE'
         AND c.table_name <> 'schema_migrations'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(`${r.table_name}.${r.column_name}`).toBe(`${r.table_name}.tenant_id`);
  });

  it('rolls back a failing migration completely', async () => {
    const bad = [
      { version: 9999, name: 'bad', sql: 'CREATE TABLE half_done (tenant_id text); SELECT * FROM nope' },
    ];
    await expect(migrate(t.db, bad)).rejects.toThrow();
    const left = await t.db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    expect(left).toHaveLength(0);
    expect(await appliedMigrations(t.db)).not.toContain(9999);
  });

  it('lets concurrent runners take turns', async () => {
    const extra = [{ version: 10_000, name: 'extra', sql: 'CREATE TABLE extra_t (tenant_id text)' }];
    const results = await Promise.all([migrate(t.db, extra), migrate(t.db, extra), migrate(t.db, extra)]);
    expect(results.flat()).toEqual([10_000]);
  });
});
