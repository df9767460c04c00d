import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/core/db.js';
import { openStore } from '../../src/engram.js';
import { openPostgres } from '../../src/store/postgres.js';
import { ADMIN_URL, createPostgresDatabase, dropPostgresDatabase } from '../helpers/drivers.js';

// A connection the pool closes takes its backend's caches with it: the next search on a new
// one costs several times a warm one's (docs/search.md, "A search after a lull").
describe.skipIf(!ADMIN_URL)("the server driver's connections after a lull [postgres]", () => {
  let url: string;
  let admin: Db;
  beforeAll(async () => {
    url = await createPostgresDatabase();
    admin = openPostgres(ADMIN_URL!, { max: 1 });
  });
  afterAll(async () => {
    await admin?.close();
    if (url) await dropPostgresDatabase(url);
  });

  const backends = async () => {
    const [row] = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'engram'`,
      [new URL(url).pathname.slice(1)],
    );
    return row!.n;
  };
  const open = async (env: Record<string, string>) => {
    const { db } = await openStore(loadConfig({ DATABASE_URL: url, ...env }), 'test');
    // statements side by side, as a search runs them: the pool opens a connection for each
    await Promise.all([1, 2, 3].map(() => db.query('SELECT pg_sleep(0.2)')));
    return db;
  };

  it('keeps them open past half a minute by default', { timeout: 60_000 }, async () => {
    const db = await open({});
    try {
      expect(await backends()).toBe(3);
      await sleep(32_000);
      expect(await backends()).toBe(3);
    } finally {
      await db.close();
    }
  });

  it('closes them after ENGRAM_DB_IDLE_SECONDS unused', { timeout: 30_000 }, async () => {
    const db = await open({ ENGRAM_DB_IDLE_SECONDS: '1' });
    try {
      expect(await backends()).toBe(3);
      await sleep(3_000);
      expect(await backends()).toBe(0);
      // and opens new ones when asked again
      await db.query('SELECT 1');
      expect(await backends()).toBe(1);
    } finally {
      await db.close();
    }
  });
});
