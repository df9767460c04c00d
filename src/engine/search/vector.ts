import type { VectorIndex, VectorTable } from '../vector-index.js';
import { countsKey } from './keyword.js';
import type { Params, Target } from './scope.js';

/**
 * Vector route: pgvector cosine distance (`<=>`) on `embedding::vector(d)`; the score is
 * the cosine similarity 1 − distance. Owner, scope and filters sit in the same WHERE as
 * the ordering, and `radius` (a similarity floor) becomes `distance <= 1 − radius`. The
 * approximate branch orders by the distance the HNSW index holds (on PostgreSQL the
 * half-precision vectors', vector-index.ts); every distance it returns, like every score,
 * is the stored single-precision vector's.
 *
 * Plan, chosen inside the one statement from statistics (no count query): the owner's
 * live documents of the kind (`size`, from search_counts) and the table's row estimate
 * (`pg_class.reltuples`, kept by ANALYZE). A filtered request, a table without an HNSW
 * index, or an owner with at most `exactMaxRows` documents is scanned exactly (the
 * ordering expression is written so the planner cannot pick the approximate index). Above
 * that, the HNSW index answers when it should touch fewer rows than the exact scan: with
 * the owner a share size / reltuples of the table, an iterative HNSW scan reads about
 * limit · reltuples / size index entries to find `limit` of the owner's rows, each costing
 * about `index.hnswVisitCost` rows of an exact scan, against `size` rows exactly. Both branches
 * are in the statement behind one-time filters, so only one runs. Every connection runs
 * with `hnsw.iterative_scan = relaxed_order` and `hnsw.ef_search = 100` (see the store
 * drivers), so a selective owner keeps the HNSW scan going until `limit` rows pass instead
 * of returning too few.
 */
const TABLE_OF: Record<Target['kind'], VectorTable> = {
  episode: 'episodes',
  fact: 'atomic_facts',
  agent_case: 'agent_cases',
  agent_skill: 'agent_skills',
  topic: 'kb_topics',
  message: 'messages',
};

/**
 * pgvector's text form of a vector. A vector holds single precision, so each component is
 * written as its nearest single-precision value (Math.fround, ties to even) in 9 significant
 * digits, as many as any such value needs to be read back exactly: the stored vector is the
 * one a double written in full gives (up to a component halfway between two), in ~28 %
 * fewer characters, and written ~2x faster than a double's shortest form (up to 17
 * digits), which was 7-8 % of a processing job's CPU in engram's process (docs/search.md).
 */
export const vectorText = (v: readonly number[]) => {
  let s = '[';
  for (let i = 0; i < v.length; i++) {
    const x = Math.fround(v[i]!);
    s += `${i ? ',' : ''}${x === 0 ? '0' : x.toPrecision(9)}`;
  }
  return `${s}]`;
};

export interface VectorQuery {
  vector: readonly number[];
  limit: number;
  /** Cosine similarity floor. */
  radius?: number | null | undefined;
}

/** `(embedding <=> query)` of the target's row, the query vector bound as `query` (`$n`). */
const cosineDistance = (index: VectorIndex, t: Target, query: string) =>
  `(${index.expr(`${t.alias}.embedding`)} <=> ${index.expr(query)})`;

/** `(embedding <=> query)` of the target's row, binding the query vector. */
export function distance(index: VectorIndex, t: Target, vector: readonly number[], p: Params): string {
  return cosineDistance(index, t, p.add(vectorText(vector)));
}

/** Subquery `(id, d)`: the target's `limit` nearest rows (d = cosine distance), plan as above. */
export function nearest(index: VectorIndex, t: Target, q: VectorQuery, p: Params): string {
  const query = p.add(vectorText(q.vector));
  const dist = cosineDistance(index, t, query);
  // the ordering the HNSW index answers, on the same parameter
  const approx = `(${index.indexExpr(`${t.alias}.embedding`)} <=> ${index.indexExpr(index.expr(query))})`;
  let where = `${t.where} AND ${t.alias}.embedding IS NOT NULL`;
  if (q.radius != null) where += ` AND ${dist} <= ${p.add(1 - q.radius)}`;
  const lim = p.add(q.limit);
  const scan = (order: string, gate: string) =>
    `(SELECT ${t.alias}.id, ${dist} AS d FROM ${t.from} WHERE ${where}${gate} ORDER BY ${order} LIMIT ${lim})`;
  const table = TABLE_OF[t.kind];
  if (t.filtered || !index.hasHnsw(table)) return scan(`${dist} + 0`, '');
  // The choice, read once for both branches (each table named in a statement is planned
  // on its own: on the embedded store planning one more search_counts lookup costs about
  // as much as running it).
  const choice = `SELECT n > ${p.add(index.exactMaxRows)} AND n * n >= ${p.add(index.hnswVisitCost * q.limit)}::float8 * (SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = '${table}'::regclass) AS approximate
     FROM (SELECT coalesce(sum(docs), 0)::float8 AS n FROM search_counts WHERE ${countsKey(p.add(t.kind))} AND term = '') size`;
  const approximate = '(SELECT approximate FROM gate)';
  return `(WITH gate AS MATERIALIZED (${choice})
    ${scan(approx, ` AND ${approximate}`)} UNION ALL ${scan(`${dist} + 0`, ` AND NOT ${approximate}`)})`;
}
