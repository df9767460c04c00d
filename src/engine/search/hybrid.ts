import type { Db } from '../../core/db.js';
import type { VectorIndex } from '../vector-index.js';
import {
  BM25_REF,
  bm25Scores,
  bm25Stats,
  matching,
  normOf,
  orQuery,
  postingScores,
  postingsDepth,
} from './keyword.js';
import { bind, type Params, type Target } from './scope.js';
import { distance, nearest } from './vector.js';

/**
 * Routes and their fusion. A route ranks the documents of one target for one query:
 *
 * - keyword: BM25 score (unbounded);
 * - vector: cosine similarity;
 * - hybrid: a normalised score fusion, W_KEYWORD · bm25norm + W_VECTOR · max(0, cosine),
 *   in 0–1. bm25norm is BM25 divided by the query's idf mass (see keyword.ts), so both
 *   halves are absolute, not relative to the other hits: a hybrid score means the same
 *   thing in every response, which is what makes `min_score` an absolute bar.
 *
 * Hybrid candidates are the union of both routes' pools; each candidate found by one
 * route is scored by the other one exactly (by id), so no candidate is missing half its
 * score because it fell outside the other route's pool.
 */
export type Route = 'keyword' | 'vector' | 'hybrid';

export const W_KEYWORD = 0.5;
export const W_VECTOR = 0.5;

export interface PreparedQuery {
  text: string;
  /** english lexemes of text. */
  terms: string[];
  /** Embedding of text (absent for the keyword route). */
  vector?: number[] | undefined;
  /**
   * For a query whose terms are a question's own plus bridges (lexicon.ts): the question's
   * own terms. bm25norm is then relative to their idf mass, so an added alternative does
   * not lower the score of a document that matches it.
   */
  own?: string[] | undefined;
}

export interface RankDeps {
  db: Db;
  index: VectorIndex;
}

export const fuse = (kwNorm: number, cosine: number) => W_KEYWORD * kwNorm + W_VECTOR * Math.max(0, cosine);

/** A document's halves under one query: raw BM25, its normalised share, cosine (null without a vector). */
interface Scored {
  id: string;
  kw: number;
  norm: number;
  cos: number | null;
  parent?: string;
}

const routeScore = (route: Route, r: Scored) =>
  route === 'keyword' ? r.kw : route === 'vector' ? (r.cos ?? 0) : fuse(r.norm, r.cos ?? 0);

/**
 * One statement scoring documents of a target under a route: either the union of the
 * routes' top `pool` candidates (keyword: BM25 over the owner's postings of the query
 * terms, or over the rows matching a query term when filters narrow the target;
 * vector: the nearest rows within the radius), or the given ids. Every returned row
 * carries both halves its route needs, computed exactly, so no candidate misses half its
 * hybrid score because it fell outside the other route's pool.
 */
async function scoreRows(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  pick:
    | { pool: number; radius?: number | null | undefined; near?: readonly string[] | undefined }
    | { ids: readonly string[] }
    | { parents: readonly string[] },
): Promise<Scored[]> {
  const p = bind(t);
  const a = t.alias;
  const useKw = route !== 'vector' && q.terms.length > 0;
  const useVec = route !== 'keyword';
  const ctes: string[] = [];
  const sources: string[] = [];
  // The rows to score, as an array computed once: the final scan then reads them by
  // primary key whatever the planner's row estimates (the embedded store has none).
  let only: string;
  const pool = 'pool' in pick ? pick : undefined;
  if ('ids' in pick)
    only = `ARRAY(SELECT jsonb_array_elements_text(${p.add(JSON.stringify(pick.ids))}::jsonb))`;
  else if ('parents' in pick)
    only = `ARRAY(SELECT ${a}.id FROM ${t.from} WHERE ${t.where}
                  AND ${t.parent} IN (SELECT jsonb_array_elements_text(${p.add(JSON.stringify(pick.parents))}::jsonb)))`;
  else only = 'ARRAY(SELECT id FROM ids)';
  // Keyword candidates of an unfiltered target come from the owner's postings, read best
  // first per query term; otherwise from the rows matching a query term (GIN).
  const posted = useKw && pool !== undefined && t.posted === true;
  if (useKw) {
    ctes.push(bm25Stats(t, q.terms, p));
    if (posted) {
      // Scores from the postings read are exact unless a query term's list is longer than
      // the depth read (its df says so): then the best candidates are scored again from
      // their own tsvector before the cut.
      const depth = postingsDepth(pool.pool);
      const truncated = `(SELECT coalesce(max(df), 0) FROM df) > ${p.add(depth)}`;
      ctes.push(`kwpost AS MATERIALIZED (${postingScores(t, depth, p)})`);
      ctes.push(
        `kwtop AS MATERIALIZED (SELECT id, score FROM kwpost ORDER BY score DESC, id LIMIT ${p.add(2 * pool.pool)})`,
      );
      ctes.push(
        `kwbest AS MATERIALIZED (SELECT id, score FROM kwtop WHERE NOT ${truncated} UNION ALL ${bm25Scores(
          `(SELECT ${a}.id, ${a}.search FROM ${t.from} WHERE ${t.where}
            AND ${a}.id = ANY (ARRAY(SELECT id FROM kwtop)) AND ${truncated})`,
        )})`,
      );
      ctes.push(`kw AS (SELECT id FROM kwbest ORDER BY score DESC, id LIMIT ${p.add(pool.pool)})`);
      sources.push('SELECT id FROM kw');
    } else {
      const cand = pool
        ? matching(t, q.terms, p)
        : `(SELECT ${a}.id, ${a}.search FROM ${t.from} WHERE ${t.where} AND ${a}.id = ANY (${only}))`;
      ctes.push(`kwall AS MATERIALIZED (${bm25Scores(cand)})`);
      if (pool) {
        ctes.push(`kw AS (SELECT id FROM kwall ORDER BY score DESC, id LIMIT ${p.add(pool.pool)})`);
        sources.push('SELECT id FROM kw');
      }
    }
  }
  if (useVec && pool) {
    // The nearest rows, read here unless another query with the same embedding read them.
    const near = pool.near
      ? `SELECT jsonb_array_elements_text(${p.add(JSON.stringify(pool.near))}::jsonb) AS id`
      : `SELECT id FROM ${nearest(d.index, t, { vector: requireVector(q), limit: pool.pool, radius: pool.radius }, p)} v`;
    ctes.push(`vec AS (${near})`);
    sources.push('SELECT id FROM vec');
  }
  if (pool) {
    if (!sources.length) return [];
    ctes.push(`ids AS MATERIALIZED (${sources.join(' UNION ')})`);
  }
  if (posted) {
    // BM25 of the candidates: the keyword candidates' as above, the nearest rows' outside
    // them that hold a query term from their own tsvector.
    const scored = ['SELECT id, score FROM kwbest WHERE id = ANY (ARRAY(SELECT id FROM ids))'];
    if (useVec)
      scored.push(
        bm25Scores(
          `(SELECT ${a}.id, ${a}.search FROM ${t.from} WHERE ${t.where}
            AND ${a}.id = ANY (ARRAY(SELECT id FROM vec EXCEPT SELECT id FROM kwbest))
            AND ${a}.search @@ ${p.add(orQuery(q.terms))}::tsquery)`,
        ),
      );
    ctes.push(`kwall AS MATERIALIZED (${scored.join(' UNION ALL ')})`);
  }
  const cos = useVec
    ? `CASE WHEN ${a}.embedding IS NOT NULL THEN (1 - ${distance(d.index, t, requireVector(q), p)})::float8 END`
    : 'NULL::float8';
  // BM25 of a row: one lookup in a map built once, not a join the planner might repeat.
  const kw = useKw ? `((SELECT jsonb_object_agg(id, score) FROM kwall) ->> ${a}.id)::float8` : 'NULL::float8';
  const rows = await d.db.query<{
    id: string;
    kw: number | null;
    ref: number | null;
    cos: number | null;
    parent?: string;
  }>(
    `${ctes.length ? `WITH ${ctes.join(',\n')}` : ''}
     SELECT ${a}.id, ${kw} AS kw, ${useKw ? refOf(q, p) : 'NULL::float8'} AS ref,
            ${cos} AS cos${t.parent ? `, ${t.parent} AS parent` : ''}
     FROM ${t.from}
     WHERE ${t.where} AND ${a}.id = ANY (${only})`,
    p.values,
  );
  return rows.map((r) => {
    const kw = Number(r.kw ?? 0);
    const out: Scored = {
      id: r.id,
      kw,
      norm: normOf(kw, Number(r.ref ?? 0)),
      cos: r.cos == null ? null : Number(r.cos),
    };
    if (r.parent !== undefined) out.parent = r.parent;
    return out;
  });
}

/** The top `pool` documents of a target under a route, with their scores. One statement. */
export async function rankTarget(...args: Parameters<typeof rankRows>): Promise<Map<string, number>> {
  return scoreMap(await rankRows(...args));
}

/** Id -> score of ranked rows. */
export const scoreMap = (rows: readonly RankedRow[]) => new Map(rows.map((r) => [r.id, r.score]));

/** A ranked document: its route score and its parent id when the target names one. */
export interface RankedRow {
  id: string;
  score: number;
  parent?: string | undefined;
}

/** rankTarget's hits with each one's parent id when the target names one. */
export async function rankRows(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  pool: number,
  radius?: number | null,
  near?: readonly string[],
): Promise<RankedRow[]> {
  if (pool <= 0) return [];
  const rows = await scoreRows(d, t, route, q, { pool, radius, near });
  return rows.map((r) => ({ id: r.id, score: routeScore(route, r), parent: r.parent }));
}

/**
 * rankRows of every query of a search over one target (a fresh target per statement).
 * Queries with the same embedding (a question and its bridged form) read the target's
 * nearest rows once: that read runs first, alone, and each query's statement takes its
 * ids instead of scanning again (the same candidates, so the same scores).
 */
export async function rankEach(
  d: RankDeps,
  t: () => Target,
  route: Route,
  queries: readonly PreparedQuery[],
  pool: number,
  radius?: number | null,
): Promise<RankedRow[][]> {
  const near = new Map<readonly number[], Promise<string[]>>();
  if (route !== 'keyword' && pool > 0)
    for (const { vector } of queries)
      if (vector && !near.has(vector) && queries.filter((x) => x.vector === vector).length > 1)
        near.set(vector, nearestIds(d, t(), vector, pool, radius));
  return Promise.all(
    queries.map(async (q) => {
      const shared = q.vector ? near.get(q.vector) : undefined;
      return rankRows(d, t(), route, q, pool, radius, shared ? await shared : undefined);
    }),
  );
}

/** Ids of the target's `limit` nearest rows to a vector (within the radius). One statement. */
async function nearestIds(
  d: RankDeps,
  t: Target,
  vector: readonly number[],
  limit: number,
  radius?: number | null,
): Promise<string[]> {
  const p = bind(t);
  const rows = await d.db.query<{ id: string }>(
    `SELECT id FROM ${nearest(d.index, t, { vector, limit, radius }, p)} v`,
    p.values,
  );
  return rows.map((r) => r.id);
}

/** Scores of specific documents of a target under a route (0 where a route finds nothing). One statement. */
export async function scoreIds(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>(ids.map((id) => [id, 0]));
  if (!ids.length) return out;
  for (const r of await scoreRows(d, t, route, q, { ids })) out.set(r.id, routeScore(route, r));
  return out;
}

/**
 * Scores of the documents of a target (one with a parent) whose parent is one of the given
 * ids, e.g. every fact of the episodes a search returns. One statement.
 */
export async function scoreChildren(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  parents: readonly string[],
): Promise<Map<string, number>> {
  if (!parents.length || !t.parent) return new Map();
  const rows = await scoreRows(d, t, route, q, { parents });
  return new Map(rows.map((r) => [r.id, routeScore(route, r)]));
}

/**
 * Merges the scores of several queries (agentic rounds, expansions): a document keeps its
 * best weighted score, `weights[i]` applying to the i-th query (default 1).
 */
export function mergeQueries(
  maps: Map<string, number>[],
  weights: readonly number[] = [],
): Map<string, number> {
  const out = new Map<string, number>();
  maps.forEach((m, i) => {
    const w = weights[i] ?? 1;
    for (const [id, s] of m) out.set(id, Math.max(out.get(id) ?? Number.NEGATIVE_INFINITY, s * w));
  });
  return out;
}

/** Σ idf of the query's own terms (needs the `w` CTE). */
const refOf = (q: PreparedQuery, p: Params) =>
  q.own
    ? `(SELECT sum(idf) FROM w WHERE term = ANY (ARRAY(SELECT jsonb_array_elements_text(${p.add(JSON.stringify(q.own))}::jsonb))))::float8`
    : BM25_REF;

function requireVector(q: PreparedQuery): number[] {
  if (!q.vector) throw new Error('vector route without a query embedding');
  return q.vector;
}
