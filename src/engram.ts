import { join } from 'node:path';
import type { Config } from './config.js';
import type { Db } from './core/db.js';
import type { Logger } from './core/log.js';
import { KeyService } from './engine/keys.js';
import { acquireLock, type DataDirLock } from './store/lock.js';
import { migrate } from './store/migrate.js';
import { openPglite } from './store/pglite.js';
import { openPostgres } from './store/postgres.js';
import { VERSION } from './version.js';

/**
 * The composition root: opens the store, runs migrations and wires the engine's services.
 * Transports (HTTP, MCP, CLI) receive an Engram and never build these parts themselves.
 */
export interface Engram {
  readonly version: string;
  readonly config: Config;
  readonly db: Db;
  readonly keys: KeyService;
  readonly log: Logger;
  /** Present when this process owns an embedded data directory. */
  readonly lock: DataDirLock | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Name of the command opening the store, recorded in the data dir lock. */
  command: string;
  log: Logger;
  /** Use an already-open database (tests); the caller keeps ownership of it. */
  db?: Db;
}

export async function openStore(config: Config, command: string): Promise<{ db: Db; lock?: DataDirLock }> {
  if (config.databaseUrl) return { db: openPostgres(config.databaseUrl, { max: config.dbPoolMax }) };
  const lock = acquireLock(config.dataDir, command);
  try {
    return { db: await openPglite(join(config.dataDir, 'pg')), lock };
  } catch (err) {
    lock.release();
    throw err;
  }
}

export async function openEngram(config: Config, opts: OpenOptions): Promise<Engram> {
  const store = opts.db ? { db: opts.db, lock: undefined } : await openStore(config, opts.command);
  const { db, lock } = store;
  try {
    const applied = await migrate(db);
    if (applied.length) opts.log.info('migrations applied', { versions: applied });
  } catch (err) {
    if (!opts.db) await db.close().catch(() => {});
    lock?.release();
    throw err;
  }
  const keys = new KeyService(db);
  let closed = false;
  return {
    version: VERSION,
    config,
    db,
    keys,
    log: opts.log,
    lock,
    async close() {
      if (closed) return;
      closed = true;
      if (!opts.db) await db.close();
      lock?.release();
    },
  };
}
