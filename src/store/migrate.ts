import type { Db } from '../core/db.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/** Arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_346_201;

/**
 * Applies every migration not yet recorded in schema_migrations, each in its own
 * transaction, in version order. Safe to run on every start and from several processes
 * at once: an advisory lock makes concurrent runners take turns, and a migration that is
 * already recorded is skipped. Returns the versions applied by this call.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  try {
    await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  } catch (err) {
    // Two processes creating the table at the same instant: one wins, the other sees it.
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') throw err;
  }
  const applied: number[] = [];
  // An up-to-date database (every start but the first) costs one read, no transaction.
  const have = new Set(await appliedMigrations(db));
  const pending = migrations.filter((m) => !have.has(m.version));
  for (const m of [...pending].sort((a, b) => a.version - b.version)) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.length > 0) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

export async function appliedMigrations(db: Db): Promise<number[]> {
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return rows.map((r) => Number(r.version));
}

/**
 * Splits a migration script into statements (extended-protocol drivers take one at a
 * time). Understands quotes, dollar quoting and -- comments, which is all our own
 * migrations use.
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let current = '';
  let i = 0;
  while (i < script.length) {
    const ch = script[i]!;
    if (ch === '-' && script[i + 1] === '-') {
      const end = script.indexOf('\n', i);
      i = end === -1 ? script.length : end + 1;
      continue;
    }
    if (ch === "'") {
      const end = script.indexOf("'", i + 1);
      current += script.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(script.slice(i));
      if (tag) {
        const end = script.indexOf(tag[0], i + tag[0].length);
        current += script.slice(i, end + tag[0].length);
        i = end + tag[0].length;
        continue;
      }
    }
    if (ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
