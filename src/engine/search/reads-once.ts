import type { Db, Row } from '../../core/db.js';

/**
 * The store as one search reads it: a statement sent again with the same parameters is
 * answered by the first one's rows instead of running again. An agentic search retrieves in
 * rounds, and each round ranks every query so far: without this, its second round ran the
 * question's rank statements (the heaviest of a search) a second time, its third a third.
 * Only for a search's reads, and only while that search runs (one per search).
 */
export function readsOnce(db: Db): Db {
  const answered = new Map<string, Promise<Row[]>>();
  const query = async <T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> => {
    const key = `${text}\u0000${JSON.stringify(params)}`;
    let rows = answered.get(key);
    if (!rows) {
      rows = db.query(text, params);
      answered.set(key, rows);
    }
    // each caller its own rows, which it may sort or change
    return (await rows).map((r) => ({ ...r })) as T[];
  };
  return Object.assign(Object.create(db) as Db, { query });
}
