import type { Sql } from '../../core/db.js';
import type { Target } from './scope.js';

/**
 * Keyword route: Okapi BM25 over the `search` tsvector, with document frequencies and
 * lengths from the write-time statistics of migration 0003 (per tenant, scope and kind).
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

/** Top `limit` documents of the target matching any term, by BM25. */
export async function keywordSearch(
  q: Sql,
  t: Target,
  terms: readonly string[],
  limit: number,
): Promise<KeywordHit[]> {
  if (!terms.length || limit <= 0) return [];
  const params = [...t.params];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const kind = p(t.kind);
  const termList = p(JSON.stringify(terms));
  const tsq = p(orQuery(terms));
  const lim = p(limit);
  const a = t.alias;
  const rows = await q.query<{ id: string; score: number; ref: number }>(
    `WITH st AS (
       SELECT greatest(doc_count, 1)::float8 AS n, greatest(total_len::float8 / greatest(doc_count, 1), 1) AS avgdl
       FROM search_stats WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND kind = ${kind}),
     w AS (
       SELECT q.term, ln(1 + (st.n - coalesce(s.df, 0) + 0.5) / (coalesce(s.df, 0) + 0.5)) AS idf
       FROM jsonb_array_elements_text(${termList}::jsonb) AS q(term) CROSS JOIN st
       LEFT JOIN search_terms s ON s.tenant_id = $1 AND s.app_id = $2 AND s.project_id = $3
         AND s.kind = ${kind} AND s.term = q.term),
     cand AS (
       SELECT ${a}.id, ${a}.search FROM ${t.from}
       WHERE ${t.where} AND ${a}.search @@ ${tsq}::tsquery)
     SELECT c.id,
            sum(w.idf * x.tf * ${K1 + 1} / (x.tf + ${K1} * (1 - ${B} + ${B} * length(c.search) / st.avgdl)))::float8 AS score,
            (SELECT sum(idf) FROM w)::float8 AS ref
     FROM cand c
     CROSS JOIN LATERAL (
       SELECT u.lexeme,
              (SELECT sum(CASE wt WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(u.weights) AS wt)::float8 AS tf
       FROM unnest(c.search) AS u) x
     JOIN w ON w.term = x.lexeme
     CROSS JOIN st
     GROUP BY c.id
     ORDER BY score DESC, c.id
     LIMIT ${lim}`,
    params,
  );
  return rows.map((r) => {
    const score = Number(r.score);
    const ref = Number(r.ref);
    return { id: r.id, score, norm: ref > 0 ? Math.min(1, score / ref) : 0 };
  });
}
