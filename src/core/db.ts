/**
 * The storage port. Both drivers (embedded PGlite, PostgreSQL server) speak the same SQL
 * with `$1`-style positional parameters. JSON values are passed as strings and cast with
 * `::jsonb`; vectors as pgvector text (`[1,2,3]`) cast with `::vector`.
 */
export type Row = Record<string, unknown>;

export interface Sql {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Sql {
  readonly driver: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Calls onPayload with the payload of every NOTIFY on channel, from any process on the
   * database, until the returned function is called. Send with `SELECT pg_notify($1, $2)`.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Runs fn while holding the lock named key, exclusive across every process on the
   * database: on PostgreSQL a session advisory lock on a connection reserved for fn's whole
   * run (released if the process dies); the embedded store has one process. fn runs its
   * statements through this Db as usual; it must not ask for the same key again.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A value as a jsonb parameter. A lone UTF-16 surrogate becomes U+FFFD, as a text
 * parameter's UTF-8 encoding makes it (jsonb refuses the escape JSON.stringify writes).
 */
export const jsonParam = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' ? (v as string & { toWellFormed(): string }).toWellFormed() : v,
  );

/**
 * pgvector settings every PostgreSQL session starts with: an HNSW scan under a selective
 * filter continues (iteratively, results nearly in order) until its LIMIT is filled,
 * starting from a candidate list of 100.
 */
export const HNSW_SESSION = { 'hnsw.iterative_scan': 'relaxed_order', 'hnsw.ef_search': '100' } as const;

/**
 * The same for the embedded store, with a candidate list of 200: measured on an owner's
 * 10,959 turns among 57k (40 questions, top 50 against the exact scan), recall@10 was 0.92
 * at 100, 0.96 at 200 and 0.99 at 400 for about the same time; but pgvector costs the
 * index scan by ef_search, and at 400 the planner chose a sequential scan and sort over
 * the index for a table of 11k rows (docs/search.md).
 */
export const PGLITE_HNSW_SESSION = { ...HNSW_SESSION, 'hnsw.ef_search': '200' } as const;
