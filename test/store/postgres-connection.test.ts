import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db.js';
import { openPostgres } from '../../src/store/postgres.js';
import {
  ADMIN_URL,
  createPostgresDatabase,
  createTestDatabase,
  DRIVERS,
  dropPostgresDatabase,
} from '../helpers/drivers.js';
import { proxied, type TcpProxy } from '../helpers/tcp-proxy.js';

describe.each(DRIVERS)('arrays read and written [%s]', (driver) => {
  let t: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
  });
  afterAll(() => t.drop());

  it('reads built-in arrays as JS arrays, with NULLs, quotes, commas and nesting', async () => {
    const [row] = await t.db.query(
      `SELECT ARRAY['plain', NULL, 'say "hi"', 'a,b', 'back\\slash', '{braces}', '']::text[] AS texts,
              ARRAY[1, -2, NULL]::int4[] AS ints,
              ARRAY[0.5, 2]::float8[] AS floats,
              ARRAY[true, false]::bool[] AS flags,
              ARRAY['{"k": [1, "x"]}'::jsonb, 'null'::jsonb] AS docs,
              ARRAY[ARRAY['a', 'b'], ARRAY['c', 'd']]::text[] AS grid,
              '{}'::text[] AS empty`,
    );
    expect(row).toEqual({
      texts: ['plain', null, 'say "hi"', 'a,b', 'back\\slash', '{braces}', ''],
      ints: [1, -2, null],
      floats: [0.5, 2],
      flags: [true, false],
      docs: [{ k: [1, 'x'] }, null],
      grid: [
        ['a', 'b'],
        ['c', 'd'],
      ],
      empty: [],
    });
  });

  it('sends a JS array parameter as the array it is', async () => {
    const texts = ['plain', null, 'say "hi"', 'a,b', 'back\\slash', '{braces}', ''];
    const [row] = await t.db.query<{ texts: unknown; n: number }>(
      'SELECT $1::text[] AS texts, cardinality($1::text[]) AS n',
      [texts],
    );
    expect(row).toEqual({ texts, n: texts.length });
  });
});

// Only the server driver has connections to lose.
describe.skipIf(!ADMIN_URL)('a connection reset as a connection starts [postgres]', () => {
  let url: string;
  let proxy: TcpProxy;
  let db: Db;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    url = await createPostgresDatabase();
    const through = await proxied(url);
    proxy = through.proxy;
    db = openPostgres(through.url, { max: 1 });
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await db.close();
    await proxy.stop();
    await dropPostgresDatabase(url);
  });

  it('fails only the statement that was running, never as an error nobody awaits', async () => {
    // The first thing a new connection sends is the caller's own statement (no type query
    // of the driver's own), so the reset reaches that caller.
    proxy.resetNextFirstStatement();
    await expect(db.query('SELECT 1 AS one')).rejects.toThrow();
    expect(await db.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(unhandled).toEqual([]);
  });
});
