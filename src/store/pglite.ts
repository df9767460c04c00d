import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { type Db, PGLITE_HNSW_SESSION, type Row, type Sql } from '../core/db.js';
import { ArrivalGate } from './arrival-gate.js';
import { inOrder } from './in-order.js';
import { preparedQueries } from './pglite-prepared.js';

/**
 * Settings of the embedded session: pgvector's (see PGLITE_HNSW_SESSION). The plan cache
 * mode is set by pglite-prepared.ts, per statement.
 */
const PGLITE_SESSION = PGLITE_HNSW_SESSION;

/**
 * Embedded driver: PostgreSQL compiled to WASM, in this process, persisted to `dataDir`
 * (or in memory when dataDir is undefined). PGlite has one backend session, so callers
 * must never open the same directory twice: see store/lock.ts. Statements and transactions
 * go through an ArrivalGate (oldest work first, the event loop turning between two);
 * statements outside a transaction run as named prepared statements (pglite-prepared.ts).
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  const pg = await PGlite.create(dataDir ?? 'memory://', { extensions: { vector } });
  for (const [name, value] of Object.entries(PGLITE_SESSION))
    await pg.query('SELECT set_config($1, $2, false)', [name, value]);
  const prepared = preparedQueries(pg);
  const wrap = (q: Pick<PGlite, 'query'>): Sql => ({
    async query<T extends Row>(text: string, params: readonly unknown[] = []) {
      const res = await q.query<T>(text, params as unknown[]);
      return res.rows;
    },
  });
  const gate = new ArrivalGate();
  // this process is the data dir's only one
  const exclusive = inOrder();
  return {
    driver: 'pglite',
    query: <T extends Row>(text: string, params?: readonly unknown[]) =>
      gate.run(() => prepared<T>(text, params)),
    transaction: (fn) => gate.run(() => pg.transaction((tx) => fn(wrap(tx)))),
    listen: async (channel, onPayload) => {
      const stop = await pg.listen(channel, onPayload);
      return () => stop();
    },
    exclusive,
    close: () => pg.close(),
  };
}
