import postgres from 'postgres';
import { type Db, HNSW_SESSION, type Row, type Sql } from '../core/db.js';
import { inOrder } from './in-order.js';
import { builtinArrayTypes } from './postgres-arrays.js';
import { connectionTarget } from './postgres-url.js';

export interface PostgresOptions {
  max?: number;
  connectTimeoutSeconds?: number;
  /**
   * Seconds an unused connection stays open (default 30; 0: until its lifetime, postgres.js's
   * 30-60 min, ends). A serving process keeps its connections (config ENGRAM_DB_IDLE_SECONDS,
   * 0): a new one loads pgvector's library, the catalogs and the shared-buffer pages it reads
   * into its backend again, and a search on new connections took ~4x one on warm ones.
   */
  idleTimeoutSeconds?: number;
}

/**
 * Server driver: PostgreSQL 15+ with pgvector through postgres.js. Stateless: any number
 * of engram processes may share one database.
 */
export function openPostgres(url: string, opts: PostgresOptions = {}): Db {
  const target = connectionTarget(url);
  const sql = postgres(target.url, {
    ...(target.host !== undefined && { host: target.host }),
    ...(target.port !== undefined && { port: target.port }),
    max: opts.max ?? 10,
    connect_timeout: opts.connectTimeoutSeconds ?? 5,
    idle_timeout: opts.idleTimeoutSeconds ?? 30,
    // Reconnect within a second once the server is back. postgres.js's own backoff grows
    // with every failed attempt of the pool (3^n / 100 s, up to 20 s): after a few seconds
    // of outage under load, the first statements after a restart waited 6-14 s.
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    transform: { undefined: null },
    // No type query on every new connection: see postgres-arrays.ts.
    fetch_types: false,
    // Callers pass JSON already serialised (the Db port's convention, which PGlite shares):
    // send strings as they are instead of JSON-encoding them a second time.
    types: {
      json: {
        to: 114,
        from: [114, 3802],
        serialize: (x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x)),
        parse: (x: string) => JSON.parse(x),
      },
      ...builtinArrayTypes,
    },
    // plan_cache_mode: see wrap below. Vector search settings of every session (see
    // engine/search/vector.ts): a filtered HNSW scan keeps going until its LIMIT is filled.
    // No parallel workers: engram's statements are short, and a search statement carries an
    // exact branch gated off at run time whose Gather would still start workers (≈ 20 ms).
    // No JIT: that gated-off branch is costed as a scan of the whole table, which lifts a
    // search statement over jit_above_cost once the table is large, and compiling it took
    // 0.5-0.9 s of a statement whose work is ~25 ms (turns ranked for an owner among 100k).
    connection: {
      application_name: 'engram',
      plan_cache_mode: 'force_custom_plan',
      max_parallel_workers_per_gather: '0',
      jit: 'off',
      ...HNSW_SESSION,
    },
  });
  const wrap = (q: postgres.Sql | postgres.TransactionSql): Sql => ({
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      // Named (prepared) statements: an unnamed statement with parameters costs postgres.js
      // two round trips (Parse/Describe, then Bind/Execute); a statement it has prepared on
      // this connection costs one. plan_cache_mode below keeps every execution planned for
      // its own parameters, as an unnamed statement is.
      const rows = await q.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
        prepare: params.length > 0,
      });
      return rows as unknown as T[];
    },
  });
  const base = wrap(sql);
  const sameKey = inOrder();
  // a lock holds a connection for its whole run: at most half the pool, so that the
  // statements of the runs holding one always find a free connection
  const lockSlots = slots(Math.max(1, Math.floor((opts.max ?? 10) / 2)));
  const exclusive = <T>(key: string, fn: () => Promise<T>): Promise<T> =>
    sameKey(key, () =>
      lockSlots(async () => {
        const conn = await sql.reserve();
        try {
          await conn.unsafe('SELECT pg_advisory_lock(hashtextextended($1, 11))', [key]);
          try {
            return await fn();
          } finally {
            // a connection that died took its session's lock with it
            await conn.unsafe('SELECT pg_advisory_unlock(hashtextextended($1, 11))', [key]).catch(() => {});
          }
        } finally {
          conn.release();
        }
      }),
    );
  return {
    driver: 'postgres',
    query: (text, params) => unlessReplayed(() => base.query(text, params)),
    transaction: (fn) => {
      let began = false;
      return unlessReplayed(
        async () =>
          (await sql.begin((tx) => {
            began = true;
            return fn(wrap(tx));
          })) as Awaited<ReturnType<typeof fn>>,
        () => !began,
      );
    },
    listen: async (channel, onPayload) => {
      // postgres.js keeps one connection for every listen and re-listens after it reconnects.
      const { unlisten } = await sql.listen(channel, onPayload);
      return unlisten;
    },
    exclusive,
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Runs at most n of the functions given at once; the others wait their turn in order. */
function slots(n: number): <T>(run: () => Promise<T>) => Promise<T> {
  let free = n;
  const waiting: (() => void)[] = [];
  return async (run) => {
    if (free > 0) free--;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/** Seconds before reconnect attempt n (1-based) of the pool: 0.1, 0.2, 0.4, ... up to 1, with jitter. */
export const reconnectDelaySeconds = (attempt: number): number =>
  (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** attempt, 1);

/**
 * postgres.js 3.4.9 keeps a connection's last ErrorResponse across a reconnect: when the
 * server shuts down (57P01) under a running statement, that statement fails with
 * CONNECTION_CLOSED, and the 57P01 is replayed onto the first statement of the connection's
 * next life, before it is sent (porsager/postgres#1223 shows the same path at startup). A
 * 57P01 therefore reaches a statement (or the BEGIN of a transaction) that never ran, so
 * it is sent once more (a transaction only if its body had not started); any other error,
 * or a second 57P01, is the caller's.
 */
async function unlessReplayed<T>(run: () => Promise<T>, unsent: () => boolean = () => true): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code !== ADMIN_SHUTDOWN || !unsent()) throw err;
    return run();
  }
}
const ADMIN_SHUTDOWN = '57P01';

let closedWriteGuard = false;

/**
 * postgres.js 3.4.9 (porsager/postgres#1154, #1208; no fixed release): a write of under
 * 1 KB is sent from a setImmediate, and when its connection closes first (the server
 * restarted, the network dropped) that timer dereferences the closed socket and throws
 * where no await can catch it, ending the process. The query it belonged to has already
 * been rejected with CONNECTION_CLOSED, so a long-running process (serve, mcp) drops that
 * one exception and lives on; any other uncaught exception still ends it with exit code 1.
 */
export function surviveClosedConnectionWrites(log: { warn(msg: string, f?: object): void }): void {
  if (closedWriteGuard) return;
  closedWriteGuard = true;
  process.on('uncaughtException', (err) => {
    if (isClosedConnectionWrite(err)) {
      log.warn('database connection closed under a pending write; its query was already failed', {});
      return;
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}

export function isClosedConnectionWrite(err: unknown): boolean {
  return (
    err instanceof TypeError &&
    /reading 'write'/.test(err.message) &&
    /nextWrite/.test(err.stack ?? '') &&
    /postgres[\\/]src[\\/]connection\.js/.test(err.stack ?? '')
  );
}
