/** EXPLAIN (ANALYZE, BUFFERS) of the statements a search runs, for bench:scale:search --explain. */
import type { Db, Row, Sql } from '../../src/core/db.js';

export interface Plan {
  sql: string;
  plan: string;
}

/**
 * A Db over `db` that, while `record` is on, runs EXPLAIN (ANALYZE, BUFFERS) of every read
 * statement (SELECT or WITH) and keeps it in `plans`, then runs the statement itself.
 */
export function explaining(db: Db): Db & { record: boolean; plans: Plan[] } {
  const wrap = (q: Sql): Sql => ({
    async query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      if (out.record && /^\s*(SELECT|WITH)\b/i.test(text)) {
        const rows = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
        out.plans.push({ sql: text.trim(), plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
      }
      return q.query<T>(text, params);
    },
  });
  const out = {
    record: false,
    plans: [] as Plan[],
    driver: db.driver,
    query: wrap(db).query,
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
    listen: (channel: string, onPayload: (payload: string) => void) => db.listen(channel, onPayload),
    exclusive: <T>(key: string, fn: () => Promise<T>) => db.exclusive(key, fn),
    close: () => db.close(),
  };
  return out;
}
