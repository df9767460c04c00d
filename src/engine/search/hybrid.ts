import type { Db } from '../../core/db.js';
import type { VectorIndex } from '../vector-index.js';
import { type Hit, keywordSearch } from './keyword.js';
import { restrictIds, type Target } from './scope.js';
import { vectorScores, vectorSearch } from './vector.js';

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
}

export interface RankDeps {
  db: Db;
  index: VectorIndex;
}

export const fuse = (kwNorm: number, cosine: number) => W_KEYWORD * kwNorm + W_VECTOR * Math.max(0, cosine);

const toMap = (hits: Hit[], pick: (h: Hit) => number = (h) => h.score) =>
  new Map(hits.map((h) => [h.id, pick(h)]));

/** The top `pool` documents of a target under a route, with their scores. */
export async function rankTarget(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  pool: number,
  radius?: number | null,
): Promise<Map<string, number>> {
  if (route === 'keyword') return toMap(await keywordSearch(d.db, t, q.terms, pool));
  const vector = requireVector(q);
  if (route === 'vector') return toMap(await vectorSearch(d.db, d.index, t, { vector, limit: pool, radius }));
  const kw = await keywordSearch(d.db, t, q.terms, pool);
  const vec = await vectorSearch(d.db, d.index, t, { vector, limit: pool, radius });
  const kwNorm = new Map(kw.map((h) => [h.id, h.norm]));
  const cos = toMap(vec);
  const needCos = kw.filter((h) => !cos.has(h.id)).map((h) => h.id);
  const needKw = vec.filter((h) => !kwNorm.has(h.id)).map((h) => h.id);
  if (needCos.length)
    for (const h of await vectorScores(d.db, d.index, restrictIds(t, needCos), vector))
      cos.set(h.id, h.score);
  if (needKw.length)
    for (const h of await keywordSearch(d.db, restrictIds(t, needKw), q.terms, needKw.length))
      kwNorm.set(h.id, h.norm);
  const out = new Map<string, number>();
  for (const id of new Set([...kwNorm.keys(), ...cos.keys()]))
    out.set(id, fuse(kwNorm.get(id) ?? 0, cos.get(id) ?? 0));
  return out;
}

/** Scores of specific documents of a target under a route (0 where a route finds nothing). */
export async function scoreIds(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>(ids.map((id) => [id, 0]));
  if (!ids.length) return out;
  const only = restrictIds(t, ids);
  const kw = route === 'vector' ? [] : await keywordSearch(d.db, only, q.terms, ids.length);
  const cos = route === 'keyword' ? [] : await vectorScores(d.db, d.index, only, requireVector(q));
  if (route === 'keyword') for (const h of kw) out.set(h.id, h.score);
  else if (route === 'vector') for (const h of cos) out.set(h.id, h.score);
  else {
    const kwNorm = new Map(kw.map((h) => [h.id, h.norm]));
    for (const h of cos) out.set(h.id, fuse(kwNorm.get(h.id) ?? 0, h.score));
    for (const h of kw) if (!cos.some((c) => c.id === h.id)) out.set(h.id, fuse(h.norm, 0));
  }
  return out;
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

function requireVector(q: PreparedQuery): number[] {
  if (!q.vector) throw new Error('vector route without a query embedding');
  return q.vector;
}
