import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/core/db.js';
import { openPglite } from '../../src/store/pglite.js';
import { openPostgres } from '../../src/store/postgres.js';

/**
 * The drivers every storage-touching test runs on: the embedded PGlite always, the
 * PostgreSQL server when ENGRAM_TEST_DATABASE_URL names an admin URL (each test database
 * is created fresh on it and dropped afterwards).
 */
export type Driver = 'pglite' | 'postgres';
export const ADMIN_URL = process.env['ENGRAM_TEST_DATABASE_URL'];
export const DRIVERS: Driver[] = ADMIN_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase {
  driver: Driver;
  db: Db;
  /** Connection URL (postgres driver only). */
  url?: string;
  /** Closes the connection and drops the database. */
  drop(): Promise<void>;
}

export async function createTestDatabase(driver: Driver, dataDir?: string): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const db = await openPglite(dataDir);
    return { driver, db, drop: () => db.close() };
  }
  const url = await createPostgresDatabase();
  const db = openPostgres(url, { max: 5 });
  return {
    driver,
    db,
    url,
    drop: async () => {
      await db.close();
      await dropPostgresDatabase(url);
    },
  };
}

/** A new empty database on the test server; returns its URL. */
export async function createPostgresDatabase(): Promise<string> {
  if (!ADMIN_URL) throw new Error('ENGRAM_TEST_DATABASE_URL is not set');
  const name = `engram_t_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres(ADMIN_URL, { max: 1 });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropPostgresDatabase(url: string): Promise<void> {
  if (!ADMIN_URL) return;
  const name = new URL(url).pathname.slice(1);
  const admin = openPostgres(ADMIN_URL, { max: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}
