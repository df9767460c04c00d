import type { Db, Sql } from '../../src/core/db.js';

/** Statements of one kind (the same text) sent through a countedDb. */
export interface StatementTime {
  text: string;
  calls: number;
  ms: number;
}

/**
 * A Db that counts the statements sent through it: every query, and in a transaction its
 * BEGIN, each statement and its COMMIT (or ROLLBACK). On PostgreSQL each is one round trip
 * (prepared statements); on the embedded store one call into PGlite. It also sums the wall
 * time of each statement text (from send to answer, waits included).
 */
export function countedDb(db: Db): { db: Db; statements: () => number; times: () => StatementTime[] } {
  let n = 0;
  const byText = new Map<string, StatementTime>();
  const timed = async <T>(text: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await run();
    } finally {
      const s = byText.get(text) ?? { text, calls: 0, ms: 0 };
      s.calls++;
      s.ms += performance.now() - t0;
      byText.set(text, s);
    }
  };
  const counted = (q: Sql): Sql => ({
    query: (text, params) => {
      n++;
      return timed(text, () => q.query(text, params));
    },
  });
  return {
    statements: () => n,
    times: () => [...byText.values()].map((s) => ({ ...s })),
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
