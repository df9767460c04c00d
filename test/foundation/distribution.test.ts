import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributionViolations, REFERENCE_TABLES } from '../../src/store/distribution.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

describe.each(DRIVERS)('schema ready for distribution by tenant [%s]', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await migrate(t.db);
  });
  afterAll(() => t.drop());

  it('every table of the migrated schema distributes by tenant_id or is a declared reference table', async () => {
    const tables = await t.db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`,
    );
    expect(tables.length).toBeGreaterThan(REFERENCE_TABLES.length);
    for (const name of REFERENCE_TABLES) expect(tables.map((r) => r.relname)).toContain(name);
    expect(await distributionViolations(t.db)).toEqual([]);
  });

  it('names each kind of violation a later migration could introduce', async () => {
    await t.db.query(`CREATE TABLE zz_no_tenant (id text PRIMARY KEY)`);
    await t.db.query(`CREATE TABLE zz_no_key (tenant_id text NOT NULL, id text NOT NULL)`);
    await t.db.query(
      `CREATE TABLE zz_parent (tenant_id text NOT NULL, id text NOT NULL, PRIMARY KEY (tenant_id, id))`,
    );
    await t.db.query(`CREATE UNIQUE INDEX zz_parent_id ON zz_parent (id)`);
    await t.db.query(`CREATE UNIQUE INDEX zz_parent_expr ON zz_parent (lower(id), tenant_id)`);
    await t.db.query(
      `CREATE TABLE zz_child (tenant_id text NOT NULL, id text NOT NULL, parent_id text NOT NULL,
         PRIMARY KEY (tenant_id, id), FOREIGN KEY (parent_id) REFERENCES zz_parent (id))`,
    );
    await t.db.query(`ALTER TABLE engram_settings ADD COLUMN zz_parent_id text`);
    await t.db.query(
      `ALTER TABLE engram_settings ADD CONSTRAINT zz_settings_parent FOREIGN KEY (tenant_id, zz_parent_id) REFERENCES zz_parent (tenant_id, id)`,
    );
    try {
      const found = (await distributionViolations(t.db)).map((v) => `${v.table}:${v.rule}`).sort();
      expect(found).toEqual([
        'engram_settings:foreign-key',
        'zz_child:foreign-key',
        'zz_no_key:primary-key',
        'zz_no_tenant:has-tenant',
        'zz_no_tenant:primary-key',
        'zz_parent:unique-index',
        'zz_parent:unique-index',
      ]);
    } finally {
      await t.db.query(`ALTER TABLE engram_settings DROP CONSTRAINT zz_settings_parent`);
      await t.db.query(`ALTER TABLE engram_settings DROP COLUMN zz_parent_id`);
      await t.db.query(`DROP TABLE zz_child, zz_parent, zz_no_key, zz_no_tenant`);
    }
    expect(await distributionViolations(t.db)).toEqual([]);
  });
});
