/** Throwaway databases for the scale benchmarks on a PostgreSQL server named by an admin URL. */
import { randomBytes } from 'node:crypto';
import { openPostgres } from '../../src/store/postgres.js';

async function admin<T>(url: string, fn: (q: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  const db = openPostgres(url, { max: 1 });
  try {
    return await fn((sql) => db.query(sql));
  } finally {
    await db.close();
  }
}

/** Creates `engram_bench_<name>_<random>` and returns its URL. */
export async function createPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const db = `engram_bench_${name.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, (q) => q(`CREATE DATABASE ${db}`));
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function dropPostgresDatabase(adminUrl: string, url: string): Promise<void> {
  const db = new URL(url).pathname.slice(1);
  await admin(adminUrl, (q) => q(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`));
}
