import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateBuckets } from '../../src/engine/rate-buckets.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

describe.each(DRIVERS)('per-key rate buckets in the database [%s]', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await migrate(t.db);
  });
  afterAll(() => t?.drop());

  it('lets exactly the burst through when requests of one key race, from several limiters', async () => {
    // two limiters on one database stand for two engram processes
    const a = new RateBuckets(t.db, 0.001, 5);
    const b = new RateBuckets(t.db, 0.001, 5);
    const waits = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take('tenant-r', 'key-1')),
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    for (const w of waits.filter((x) => x > 0)) expect(w).toBeGreaterThanOrEqual(1);
    // another key, and the same key id in another tenant, have their own buckets
    expect(await a.take('tenant-r', 'key-2')).toBe(0);
    expect(await b.take('tenant-s', 'key-1')).toBe(0);
  });

  it('refills at the rate, up to the burst', async () => {
    const fast = new RateBuckets(t.db, 1000, 2);
    expect(await fast.take('tenant-r', 'key-f')).toBe(0);
    expect(await fast.take('tenant-r', 'key-f')).toBe(0);
    // wait on the database clock until a token has surely come back
    await t.db.query(`SELECT pg_sleep(0.01)`);
    expect(await fast.take('tenant-r', 'key-f')).toBe(0);
    const rows = await t.db.query<{ tokens: number }>(
      `SELECT tokens FROM rate_buckets WHERE tenant_id = 'tenant-r' AND key_id = 'key-f'`,
    );
    expect(Number(rows[0]!.tokens)).toBe(1); // refilled to the burst (2), one taken
  });

  it('takes nothing when disabled', async () => {
    const off = new RateBuckets(t.db, 0, 1);
    for (let i = 0; i < 3; i++) expect(await off.take('tenant-r', 'key-o')).toBe(0);
  });
});
