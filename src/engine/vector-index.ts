import type { Db, Sql } from '../core/db.js';
import type { Logger } from '../core/log.js';
import type { Embedder } from '../core/ports.js';

/**
 * Per-database vector set-up. Embedding columns are untyped `vector`: the first start
 * records the embedder id and dimension in engram_settings, and every later start must
 * agree (a different model's vectors are not comparable). Indexes are expression indexes
 * for that dimension, `USING hnsw ((embedding::<type>(d)) <type>_cosine_ops)`, where the
 * type (hnswType) is half precision, `halfvec`, on PostgreSQL: half the index's pages for
 * the same graph (a store's turn index 424 -> 215 MB), as fast to build and to read, as many
 * of the exact nearest rows found, and up to 4,000 dimensions where single precision stops
 * at 2,000. On PGlite, whose pgvector runs without the CPU's half-precision instructions, a
 * half-precision graph was 4.5 times slower to build and 2-3 times slower to read, so it
 * keeps single precision (`vector`) up to 2,000 dimensions. An HNSW scan finds candidates
 * by the index's distance; search scores them from the stored single-precision vectors
 * (engine/search/vector.ts). Figures: docs/search.md. A table's index of another name for
 * the same dimension (an earlier version's, single precision or over every row) is
 * dropped once this version's is built.
 *
 * Message turns are indexed only once extracted and live (the rows turn search reads): a
 * turn's row is updated several times on its way there (buffered, embedded, segmented), and
 * each update is a new row version that a full index would take in again. Episodes, facts,
 * cases and skills are indexed while live (INDEXED_ROWS).
 *
 * Strategy per driver (measured, see docs/search.md): PostgreSQL gets HNSW indexes at
 * once. On PGlite, inserts with an HNSW index present are several times slower and an
 * exact scan of a few thousand rows takes milliseconds, so HNSW is built only once a
 * table holds more than `pgliteHnswMinRows` embedded rows (checked at start and by
 * `maintain()`); below that, search scans exactly.
 */
export const VECTOR_TABLES = [
  'episodes',
  'atomic_facts',
  'agent_cases',
  'agent_skills',
  'kb_topics',
  'messages',
] as const;
export type VectorTable = (typeof VECTOR_TABLES)[number];

const SETTING_KEY = 'embedding';

/** Arbitrary constant: the advisory lock that serialises vector index builds across processes. */
const INDEX_LOCK = 7_346_202;

/**
 * The rows a table's HNSW index holds, when not all of them (a partial index), and the end
 * of its name. Soft-deleted rows are left out: a delete is an UPDATE that cannot stay on its
 * page (no room for a second ~2 kB version), so each index takes the new version in, and an
 * HNSW insertion was ~90 % of the UPDATE (8,000 facts: 2.9 s with the whole-table index,
 * 0.29 s without it); a row version outside the predicate is not inserted. Searches read
 * live rows only, so they use these indexes as they did the whole-table ones.
 */
const INDEXED_ROWS: Partial<Record<VectorTable, { rows: string; suffix: string }>> = {
  messages: { rows: "state = 'extracted' AND deleted_at IS NULL", suffix: '_extracted' },
  episodes: { rows: 'deleted_at IS NULL', suffix: '_live' },
  atomic_facts: { rows: 'deleted_at IS NULL', suffix: '_live' },
  agent_cases: { rows: 'deleted_at IS NULL', suffix: '_live' },
  agent_skills: { rows: 'deleted_at IS NULL', suffix: '_live' },
};

/** The start of the name of every HNSW index of a table, whatever its dimension or rows. */
const hnswPrefix = (table: VectorTable) => `${table}_embedding_hnsw_`;

/** Most dimensions pgvector's HNSW takes for single-precision vectors (half precision: 4,000). */
export const VECTOR_HNSW_MAX_DIMS = 2_000;

export type HnswType = 'halfvec' | 'vector';

/** The vector type a driver's HNSW indexes hold for `dims` dimensions (see the comment above). */
export const hnswType = (driver: Db['driver'], dims: number): HnswType =>
  driver === 'postgres' || dims > VECTOR_HNSW_MAX_DIMS ? 'halfvec' : 'vector';

/** The name of a table's HNSW index for vectors of `dims` dimensions (`h`: half precision). */
export const hnswIndexName = (table: VectorTable, dims: number, type: HnswType) =>
  `${hnswPrefix(table)}${type === 'halfvec' ? 'h' : ''}${dims}${INDEXED_ROWS[table]?.suffix ?? ''}`;

/**
 * The other names a table's HNSW index for `dims` dimensions has had: either type, over
 * every row or over the rows INDEXED_ROWS names. Each is replaced by hnswIndexName's.
 */
export const otherHnswIndexNames = (table: VectorTable, dims: number, type: HnswType): string[] => {
  const suffix = INDEXED_ROWS[table]?.suffix;
  const names = ['', 'h'].flatMap((h) => [
    `${hnswPrefix(table)}${h}${dims}`,
    ...(suffix ? [`${hnswPrefix(table)}${h}${dims}${suffix}`] : []),
  ]);
  return names.filter((n) => n !== hnswIndexName(table, dims, type));
};

/** Drops every HNSW index of a table: any dimension, this version's names and earlier ones'. */
export async function dropHnswIndexes(q: Sql, table: VectorTable): Promise<void> {
  const found = await q.query<{ indexname: string }>(
    'SELECT indexname FROM pg_indexes WHERE tablename = $1 AND indexname LIKE $2',
    [table, `${hnswPrefix(table)}%`],
  );
  for (const { indexname } of found) await q.query(`DROP INDEX IF EXISTS ${indexname}`);
}

/** Default of VectorIndexOptions.exactMaxRows. */
export const EXACT_MAX_ROWS = 1_000;

/**
 * Default of VectorIndexOptions.hnswVisitCost per driver: the cost of one entry read by an
 * HNSW scan, in rows of an exact scan of the owner's rows (see engine/search/vector.ts),
 * bounded on the bench stores (docs/search.md, Vector index strategy). PostgreSQL 15 /
 * pgvector 0.8, 100k rows of 50 other owners, shared_buffers 128 MB, a stream of different
 * questions: an HNSW entry under the owner filter is a heap fetch of some other owner's row,
 * mostly outside the buffers, while the owner's own rows stay in them. An owner's 10,959
 * turns at size² = 9.6 · limit · reltuples were read twice as fast exactly (20 against 45 ms
 * a statement), 10,847 facts at 26.3 as fast either way, 32,875 turns at 79 faster through
 * HNSW (~33 against ~58 ms). PGlite: an owner's facts at 13.3 were slower exactly (the bound
 * is below that; 2 is kept).
 */
export const HNSW_VISIT_COST = { postgres: 30, pglite: 2 } as const;

export class VectorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VectorConfigError';
  }
}

export interface VectorIndexOptions {
  /**
   * PGlite: build HNSW for a table once it holds more embedded rows than this (default
   * 10,000: one owner's ~11k turns read exactly took ~90-130 ms, through HNSW ~3 ms; the
   * index costs ~1.3 ms per row to build and ~3-6 ms more per inserted row, docs/search.md).
   */
  pgliteHnswMinRows?: number;
  /**
   * With HNSW present, an owner with at most this many documents of a kind is always
   * scanned exactly (default 1,000 on both drivers). Larger owners use HNSW when it should
   * read fewer rows (see engine/search/vector.ts): on PGlite an exact scan of an owner's
   * ~11k turns took ~90-130 ms against ~3 ms for the HNSW read (docs/search.md).
   */
  exactMaxRows?: number;
  /** Cost of an HNSW entry in rows of an exact scan (default HNSW_VISIT_COST of the driver). */
  hnswVisitCost?: number;
}

export class VectorIndex {
  private readonly hnsw = new Set<VectorTable>();
  readonly pgliteHnswMinRows: number;
  readonly exactMaxRows: number;
  readonly hnswVisitCost: number;
  /** The vector type of this database's HNSW indexes (hnswType). */
  readonly hnswType: HnswType;

  private constructor(
    private readonly db: Db,
    readonly embedderId: string,
    readonly dimensions: number,
    private readonly log: Logger,
    opts: VectorIndexOptions,
  ) {
    this.pgliteHnswMinRows = opts.pgliteHnswMinRows ?? 10_000;
    this.exactMaxRows = opts.exactMaxRows ?? EXACT_MAX_ROWS;
    this.hnswVisitCost = opts.hnswVisitCost ?? HNSW_VISIT_COST[db.driver];
    this.hnswType = hnswType(db.driver, dimensions);
  }

  /**
   * Records (first start) or checks the embedder of this database, then creates the
   * indexes the driver's strategy asks for. Throws VectorConfigError on a mismatch.
   */
  static async setup(
    db: Db,
    embedder: Pick<Embedder, 'id' | 'dimensions'>,
    log: Logger,
    opts: VectorIndexOptions = {},
  ): Promise<VectorIndex> {
    await checkEmbedder(db, embedder);
    const index = new VectorIndex(db, embedder.id, embedder.dimensions, log, opts);
    await index.maintain();
    return index;
  }

  /** `embedding::vector(d)`: the stored vector, as scores and exact scans read it. */
  expr(column = 'embedding'): string {
    return `${column}::vector(${this.dimensions})`;
  }

  /** `embedding::<hnswType>(d)`: the expression the HNSW indexes are built on and their scans order by. */
  indexExpr(column = 'embedding'): string {
    return `${column}::${this.hnswType}(${this.dimensions})`;
  }

  /** The name of this database's HNSW index of a table. */
  indexName(table: VectorTable): string {
    return hnswIndexName(table, this.dimensions, this.hnswType);
  }

  /** True when table has an HNSW index for this dimension. */
  hasHnsw(table: VectorTable): boolean {
    return this.hnsw.has(table);
  }

  /**
   * Creates the HNSW indexes the strategy calls for that do not exist yet (and drops a
   * table's index of another name, otherHnswIndexNames, once its replacement is built).
   * When there is anything to do, it is done in one transaction under an
   * advisory lock every process on the database shares, so processes starting together do
   * not build the same index at once (the second CREATE of one name fails) and a process
   * that finds a build under way waits for it, then uses it. The transaction needs one
   * connection, whatever the pool size. A build blocks writes to its table while it runs
   * (for a large store, build it beforehand: docs/search.md, "Vector index strategy").
   */
  async maintain(): Promise<void> {
    const present = async (q: Sql) =>
      new Set(
        (
          await q.query<{ indexname: string }>(
            'SELECT indexname FROM pg_indexes WHERE indexname = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))',
            [
              JSON.stringify(
                VECTOR_TABLES.flatMap((t) => [
                  this.indexName(t),
                  ...otherHnswIndexNames(t, this.dimensions, this.hnswType),
                ]),
              ),
            ],
          )
        ).map((r) => r.indexname),
      );
    const done = (have: Set<string>, table: VectorTable) =>
      have.has(this.indexName(table)) &&
      !otherHnswIndexNames(table, this.dimensions, this.hnswType).some((name) => have.has(name));
    const note = (have: Set<string>) => {
      for (const table of VECTOR_TABLES) if (have.has(this.indexName(table))) this.hnsw.add(table);
    };
    const have = await present(this.db);
    note(have);
    if (VECTOR_TABLES.every((t) => done(have, t))) return;
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [INDEX_LOCK]);
      const now = await present(tx);
      note(now);
      for (const table of VECTOR_TABLES) if (!done(now, table)) await this.build(tx, table, now);
    });
    note(await present(this.db));
  }

  /**
   * Builds one table's index when due (in maintain's transaction), then drops its indexes of
   * other names (on PGlite, a table not due is scanned exactly, as the strategy has it).
   */
  private async build(tx: Sql, table: VectorTable, have: Set<string>): Promise<void> {
    const name = this.indexName(table);
    const rows = INDEXED_ROWS[table]?.rows;
    if (!have.has(name) && (await this.due(tx, table))) {
      const started = Date.now();
      await tx.query(
        `CREATE INDEX IF NOT EXISTS ${name} ON ${table} USING hnsw ((${this.indexExpr()}) ${this.hnswType}_cosine_ops)${rows ? ` WHERE ${rows}` : ''}`,
      );
      this.log.info('vector index created', { table, index: name, ms: Date.now() - started });
    }
    for (const old of otherHnswIndexNames(table, this.dimensions, this.hnswType)) {
      if (!have.has(old)) continue;
      await tx.query(`DROP INDEX IF EXISTS ${old}`);
      this.log.info("vector index dropped: replaced by this version's", { table, index: old, by: name });
    }
  }

  /** True when the table's index should exist: always on PostgreSQL, past the threshold on PGlite. */
  private async due(tx: Sql, table: VectorTable): Promise<boolean> {
    if (this.db.driver !== 'pglite') return true;
    const rows = INDEXED_ROWS[table]?.rows;
    const count = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE embedding IS NOT NULL${rows ? ` AND ${rows}` : ''}`,
    );
    return (count[0]?.n ?? 0) > this.pgliteHnswMinRows;
  }
}

interface EmbeddingSetting {
  id: string;
  dimensions: number;
}

/** Records the embedder on first use; on a mismatch with stored vectors, throws. */
async function checkEmbedder(db: Db, embedder: Pick<Embedder, 'id' | 'dimensions'>): Promise<void> {
  const want: EmbeddingSetting = { id: embedder.id, dimensions: embedder.dimensions };
  await db.query(
    `INSERT INTO engram_settings (tenant_id, key, value) VALUES ('', $1, $2::jsonb) ON CONFLICT DO NOTHING`,
    [SETTING_KEY, JSON.stringify(want)],
  );
  const rows = await db.query<{ value: EmbeddingSetting }>(
    `SELECT value FROM engram_settings WHERE tenant_id = '' AND key = $1`,
    [SETTING_KEY],
  );
  const have = rows[0]?.value;
  if (!have || (have.id === want.id && have.dimensions === want.dimensions)) return;
  const stored = await db.query(
    VECTOR_TABLES.map((t) => `SELECT 1 FROM ${t} WHERE embedding IS NOT NULL`).join(' UNION ALL ') +
      ' LIMIT 1',
  );
  if (!stored.length) {
    // Nothing embedded yet: the new embedder simply takes over.
    await db.query(
      `UPDATE engram_settings SET value = $2::jsonb, updated_at = now() WHERE tenant_id = '' AND key = $1`,
      [SETTING_KEY, JSON.stringify(want)],
    );
    return;
  }
  throw new VectorConfigError(
    `embedding model mismatch: this database holds vectors from "${have.id}" (${have.dimensions} dimensions), ` +
      `but engram is configured with "${want.id}" (${want.dimensions} dimensions). ` +
      `Configure "${have.id}" again, or run \`engram reindex\` to re-embed every memory with "${want.id}".`,
  );
}
