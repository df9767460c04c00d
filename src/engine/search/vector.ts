import type { Db } from '../../core/db.js';
import type { VectorIndex, VectorTable } from '../vector-index.js';
import type { Hit } from './keyword.js';
import type { Target } from './scope.js';

/**
 * Vector route: pgvector cosine distance (`<=>`) on `embedding::vector(d)`; the score is
 * the cosine similarity 1 − distance. Owner, scope and filters sit in the same WHERE as
 * the ordering, and `radius` (a similarity floor) becomes `distance <= 1 − radius`.
 *
 * Plan: without an HNSW index, or when the filtered candidate set holds at most
 * `exactMaxRows` rows, the scan is exact (the ordering expression is written so the
 * planner cannot pick the approximate index). Otherwise the HNSW index is used inside a
 * transaction with `hnsw.iterative_scan = relaxed_order`, so a selective filter keeps
 * the scan going until `limit` rows pass instead of returning too few.
 */
const TABLE_OF: Record<Target['kind'], VectorTable> = {
  episode: 'episodes',
  fact: 'atomic_facts',
  agent_case: 'agent_cases',
  agent_skill: 'agent_skills',
  topic: 'kb_topics',
};

export const vectorText = (v: readonly number[]) => `[${v.join(',')}]`;

export interface VectorQuery {
  vector: readonly number[];
  limit: number;
  /** Cosine similarity floor. */
  radius?: number | null | undefined;
}

export async function vectorSearch(db: Db, index: VectorIndex, t: Target, q: VectorQuery): Promise<Hit[]> {
  if (q.limit <= 0) return [];
  const params = [...t.params, vectorText(q.vector)];
  const v = `$${params.length}::vector(${index.dimensions})`;
  const dist = `(${index.expr(`${t.alias}.embedding`)} <=> ${v})`;
  let where = `${t.where} AND ${t.alias}.embedding IS NOT NULL`;
  if (q.radius != null) {
    params.push(1 - q.radius);
    where += ` AND ${dist} <= $${params.length}`;
  }
  params.push(q.limit);
  const lim = `$${params.length}`;
  const approximate = index.hasHnsw(TABLE_OF[t.kind]) && !(await smallCandidateSet(db, index, t));
  const sql = `SELECT ${t.alias}.id, (1 - ${dist})::float8 AS score FROM ${t.from} WHERE ${where}
               ORDER BY ${approximate ? dist : `${dist} + 0`} LIMIT ${lim}`;
  const rows = approximate
    ? await db.transaction(async (tx) => {
        await tx.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
        await tx.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(Math.max(40, q.limit * 2))]);
        return tx.query<{ id: string; score: number }>(sql, params);
      })
    : await db.query<{ id: string; score: number }>(sql, params);
  // relaxed_order may return neighbours slightly out of order.
  return rows.map((r) => ({ id: r.id, score: Number(r.score) })).sort((a, b) => b.score - a.score);
}

/** Cosine similarity of the given rows of the target to the vector (rows without a vector are left out). */
export async function vectorScores(
  db: Db,
  index: VectorIndex,
  t: Target,
  vector: readonly number[],
): Promise<Hit[]> {
  const params = [...t.params, vectorText(vector)];
  const dist = `(${index.expr(`${t.alias}.embedding`)} <=> $${params.length}::vector(${index.dimensions}))`;
  const rows = await db.query<{ id: string; score: number }>(
    `SELECT ${t.alias}.id, (1 - ${dist})::float8 AS score FROM ${t.from}
     WHERE ${t.where} AND ${t.alias}.embedding IS NOT NULL`,
    params,
  );
  return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
}

async function smallCandidateSet(db: Db, index: VectorIndex, t: Target): Promise<boolean> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${t.from} WHERE ${t.where} LIMIT ${index.exactMaxRows + 1}) s`,
    t.params,
  );
  return (rows[0]?.n ?? 0) <= index.exactMaxRows;
}
