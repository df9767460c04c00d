import type { Sql } from '../../core/db.js';
import { bind, type Params, type Target } from './scope.js';

/**
 * Keyword route: Okapi BM25 over the `search` tsvector, with document frequencies and
 * lengths from the owner's write-time statistics (search_counts, migration 0011: per
 * tenant, scope, kind and owner).
 *
 *   score(d) = Σ_t idf(t) · tf'(t,d)·(k1+1) / (tf'(t,d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 *
 * tf' is BM25F-style: each occurrence counts by the weight of its field (A = 3, B = 2,
 * C and D = 1; episodes weight subject A, summary B, narrative C). |d| is the number of
 * distinct lexemes. `norm` divides the score by Σ_t idf(t), the score of a document of
 * average length holding every query term once: a 0–1 "share of the query matched".
 */
export const K1 = 1.2;
export const B = 0.75;

export interface Hit {
  id: string;
  score: number;
}

export interface KeywordHit extends Hit {
  /** score / Σ idf(query terms), capped at 1. */
  norm: number;
}

/** The query's lexemes under the english configuration (stopwords dropped, stemmed). */
export async function queryLexemes(q: Sql, text: string): Promise<string[]> {
  const rows = await q.query<{ lexeme: string }>(
    `SELECT lexeme FROM unnest(to_tsvector('english', $1)) ORDER BY lexeme`,
    [text],
  );
  return rows.map((r) => r.lexeme);
}

/** `'a' | 'b'` for a list of lexemes (already normalised, so no further stemming). */
export function orQuery(terms: readonly string[]): string {
  return terms.map((t) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/** WHERE of the owner's statistics rows of the target's kind ($1-$4 are tenant, app, project, owner). */
export const countsKey = (kind: string) =>
  `tenant_id = $1 AND app_id = $2 AND project_id = $3 AND kind = ${kind} AND owner_id = $4`;

/**
 * CTEs `st` (n, avgdl: the owner's live documents of the kind and their mean length) and
 * `w` (term, idf of every query term), read from a few index entries of search_counts.
 */
export function bm25Stats(t: Target, terms: readonly string[], p: Params): string {
  const key = countsKey(p.add(t.kind));
  const list = p.add(JSON.stringify(terms));
  return `st AS (
       SELECT greatest(coalesce(sum(docs), 0), 1)::float8 AS n,
              greatest(coalesce(sum(len), 0)::float8 / greatest(coalesce(sum(docs), 0), 1), 1) AS avgdl
       FROM search_counts WHERE ${key} AND term = ''),
     df AS (
       SELECT term, sum(docs)::float8 AS df FROM search_counts
       WHERE ${key} AND term = ANY (ARRAY(SELECT jsonb_array_elements_text(${list}::jsonb)))
       GROUP BY term),
     w AS (
       SELECT q.term, ln(1 + (st.n - coalesce(df.df, 0) + 0.5) / (coalesce(df.df, 0) + 0.5)) AS idf
       FROM jsonb_array_elements_text(${list}::jsonb) AS q(term) CROSS JOIN st
       LEFT JOIN df ON df.term = q.term)`;
}

/** Σ idf of the query terms (needs the `w` CTE). */
export const BM25_REF = '(SELECT sum(idf) FROM w)::float8';

/** BM25 (`score`) of each row of `cand(id, search)` holding a query term (needs `st`, `w`). */
export const bm25Scores = (cand: string) =>
  `SELECT c.id,
          sum(x.idf * x.tf * ${K1 + 1} / (x.tf + ${K1} * (1 - ${B} + ${B} * length(c.search) / st.avgdl)))::float8 AS score
   FROM ${cand} c
   CROSS JOIN LATERAL (
     SELECT w.idf,
            (SELECT sum(CASE wt WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(u.weights) AS wt)::float8 AS tf
     FROM unnest(c.search) AS u JOIN w ON w.term = u.lexeme) x
   CROSS JOIN st
   GROUP BY c.id`;

/** The target's rows holding any query term, as a subquery `(id, search)`. */
export function matching(t: Target, terms: readonly string[], p: Params): string {
  return `(SELECT ${t.alias}.id, ${t.alias}.search FROM ${t.from}
           WHERE ${t.where} AND ${t.alias}.search @@ ${p.add(orQuery(terms))}::tsquery)`;
}

export const normOf = (score: number, ref: number) => (ref > 0 ? Math.min(1, score / ref) : 0);

/** Top `limit` documents of the target matching any term, by BM25. One statement. */
export async function keywordSearch(
  q: Sql,
  t: Target,
  terms: readonly string[],
  limit: number,
): Promise<KeywordHit[]> {
  if (!terms.length || limit <= 0) return [];
  const p = bind(t);
  const stats = bm25Stats(t, terms, p);
  const cand = matching(t, terms, p);
  const rows = await q.query<{ id: string; score: number; ref: number }>(
    `WITH ${stats}, bm AS (${bm25Scores(cand)})
     SELECT id, score, ${BM25_REF} AS ref FROM bm ORDER BY score DESC, id LIMIT ${p.add(limit)}`,
    p.values,
  );
  return rows.map((r) => {
    const score = Number(r.score);
    return { id: r.id, score, norm: normOf(score, Number(r.ref)) };
  });
}
