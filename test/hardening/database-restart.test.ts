import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db.js';
import { openPostgres, reconnectDelaySeconds } from '../../src/store/postgres.js';
import { ADMIN_URL, createPostgresDatabase, dropPostgresDatabase } from '../helpers/drivers.js';
import { waitFor } from '../helpers/wait.js';

/**
 * When PostgreSQL shuts down (or a backend is terminated) under a running statement, the
 * server sends 57P01 and closes the connection. The statement fails; the next statement
 * on the reconnected connection must run, not fail with that old 57P01.
 */
describe.skipIf(!ADMIN_URL)('statements after the server ended a connection [postgres]', () => {
  let url: string;
  let db: Db;
  let admin: Db;

  beforeAll(async () => {
    url = await createPostgresDatabase();
    db = openPostgres(url, { max: 1 });
    admin = openPostgres(url, { max: 1 });
  });
  afterAll(async () => {
    await db.close();
    await admin.close();
    await dropPostgresDatabase(url);
  });

  /** Starts a long statement on db's one connection and has the server terminate it. */
  const terminateUnderStatement = async (marker: string) => {
    const running = db.query(`SELECT pg_sleep(60) AS "${marker}"`).then(
      () => 'finished',
      (err: { code?: string }) => err.code ?? 'error',
    );
    let pid: number | undefined;
    await waitFor(`the statement ${marker} running`, async () => {
      const rows = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`,
        [`%"${marker}"%`],
      );
      pid = rows[0]?.pid;
      return pid !== undefined;
    });
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(await running).not.toBe('finished');
  };

  it('runs the next statement on the connection', async () => {
    await terminateUnderStatement('m1');
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('runs the next transaction on the connection', async () => {
    await terminateUnderStatement('m2');
    const got = await db.transaction(async (tx) => tx.query<{ two: number }>('SELECT 2 AS two'));
    expect(got).toEqual([{ two: 2 }]);
  });
});

describe('reconnect delay after failed attempts', () => {
  it('stays at or under one second however many attempts failed', () => {
    for (const attempt of [1, 2, 5, 10, 50]) {
      const s = reconnectDelaySeconds(attempt);
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });
});
