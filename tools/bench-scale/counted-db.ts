import type { Db, Sql } from '../../src/core/db.js';

/**
 * A Db that counts the statements sent through it: every query, and in a transaction its
 * BEGIN, each statement and its COMMIT (or ROLLBACK). On PostgreSQL each is one round trip
 * (prepared statements); on the embedded store one call into PGlite.
 */
export function countedDb(db: Db): { db: Db; statements: () => number } {
  let n = 0;
  const counted = (q: Sql): Sql => ({
    query: (text, params) => {
      n++;
      return q.query(text, params);
    },
  });
  return {
    statements: () => n,
    db: {
      driver: db.driver,
      ...counted(db),
      transaction: (fn) => {
        n += 2;
        return db.transaction((tx) => fn(counted(tx)));
      },
      listen: (channel, onPayload) => db.listen(channel, onPayload),
      exclusive: (key, fn) => db.exclusive(key, fn),
      close: () => db.close(),
    },
  };
}
