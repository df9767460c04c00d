import type { Db } from '../../core/db.js';
import type { VectorIndex, VectorTable } from '../vector-index.js';
import { countsKey, type Hit } from './keyword.js';
import { bind, type Params, type Target } from './scope.js';

/**
 * Vector route: pgvector cosine distance (`<=>`) on `embedding::vector(d)`; the score is
 * the cosine similarity 1 − distance. Owner, scope and filters sit in the same WHERE as
 * the ordering, and `radius` (a similarity floor) becomes `distance <= 1 − radius`.
 *
 * Plan, chosen inside the one statement from the owner's document count in
 * search_counts (no count query): an owner with at most `exactMaxRows` documents of the
 * kind, a filtered request, or a table without an HNSW index is scanned exactly (the
 * ordering expression is written so the planner cannot pick the approximate index);
 * otherwise the HNSW index answers. Both branches are in the statement behind one-time
 * filters, so only one runs. Every connection runs with `hnsw.iterative_scan =
 * relaxed_order` (see the store drivers), so a selective owner keeps the HNSW scan going
 * until `limit` rows pass instead of returning too few.
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

/** `(embedding <=> query)` of the target's row, binding the query vector. */
export function distance(index: VectorIndex, t: Target, vector: readonly number[], p: Params): string {
  return `(${index.expr(`${t.alias}.embedding`)} <=> ${p.add(vectorText(vector))}::vector(${index.dimensions}))`;
}

/** Subquery `(id, d)`: the target's `limit` nearest rows (d = cosine distance), plan as above. */
export function nearest(index: VectorIndex, t: Target, q: VectorQuery, p: Params): string {
  const dist = distance(index, t, q.vector, p);
  let where = `${t.where} AND ${t.alias}.embedding IS NOT NULL`;
  if (q.radius != null) where += ` AND ${dist} <= ${p.add(1 - q.radius)}`;
  const lim = p.add(q.limit);
  const scan = (order: string, gate: string) =>
    `(SELECT ${t.alias}.id, ${dist} AS d FROM ${t.from} WHERE ${where}${gate} ORDER BY ${order} LIMIT ${lim})`;
  if (t.filtered || !index.hasHnsw(TABLE_OF[t.kind])) return scan(`${dist} + 0`, '');
  const size = `(SELECT coalesce(sum(docs), 0) FROM search_counts WHERE ${countsKey(p.add(t.kind))} AND term = '')`;
  const max = p.add(index.exactMaxRows);
  return `(${scan(dist, ` AND ${size} > ${max}`)} UNION ALL ${scan(`${dist} + 0`, ` AND ${size} <= ${max}`)})`;
}

export async function vectorSearch(db: Db, index: VectorIndex, t: Target, q: VectorQuery): Promise<Hit[]> {
  if (q.limit <= 0) return [];
  const p = bind(t);
  const rows = await db.query<{ id: string; score: number }>(
    `SELECT v.id, (1 - v.d)::float8 AS score FROM ${nearest(index, t, q, p)} v ORDER BY v.d, v.id`,
    p.values,
  );
  return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
}
