import type { Sql } from '../../core/db.js';
import type { Params, Target } from './scope.js';

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

/** The query's lexemes under the english configuration (stopwords dropped, stemmed). */
export async function queryLexemes(q: Sql, text: string): Promise<string[]> {
  const rows = await q.query<{ lexeme: string }>(
    `SELECT lexeme FROM unnest(to_tsvector('english', $1)) ORDER BY lexeme`,
    [text],
  );
  return rows.map((r) => r.lexeme);
}

const quoted = (t: string) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** `'a' | 'b'` for a list of lexemes (already normalised, so no further stemming). */
export function orQuery(terms: readonly string[]): string {
  return terms.map(quoted).join(' | ');
}

/** `'a' & 'b'`: every one of the lexemes. */
export function andQuery(terms: readonly string[]): string {
  return terms.map(quoted).join(' & ');
}

/** WHERE of the owner's statistics rows of the target's kind ($1-$4 are tenant, app, project, owner). */
export const countsKey = (kind: string, a = '') =>
  `${a}tenant_id = $1 AND ${a}app_id = $2 AND ${a}project_id = $3 AND ${a}kind = ${kind} AND ${a}owner_id = $4`;

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

/**
 * The sum of BM25 parts: one column `score`, or with `groups` (the CTE names of several
 * queries' terms, each a subset of `w`) one column `s<i>` per query, the sum over that
 * query's terms only (NULL for a document holding none of them).
 */
const sums = (part: string, term: string, groups?: readonly string[], order = '') =>
  groups
    ? groups
        .map(
          (g, i) =>
            `(sum(${part}${order}) FILTER (WHERE ${term} = ANY (ARRAY(SELECT term FROM ${g}))))::float8 AS s${i}`,
        )
        .join(',\n          ')
    : `sum(${part}${order})::float8 AS score`;

/**
 * BM25 (`score`, or `s<i>` per query of `groups`, see sums) of each row of `cand(id, search)`
 * holding a query term (needs `st`, `w`; `terms` names the CTE of the query's terms when `w`
 * holds several queries' terms: the row's lexemes are cut to those, then joined to `w` as a
 * query alone would be). A row's terms are added in lexeme order, so its score is the same
 * float whichever plan or grouping produced the rows (candidates tied on score are then cut
 * by id the same way).
 * Only the query's lexemes of a row are unnested: deleting from its tsvector every lexeme
 * that is not a query term (the row's lexemes minus the query's, deleted again) is done in
 * C, where unnesting a whole episode's ~130 lexemes into rows to join them cost several
 * times more. tf = positions + 2 per A + 1 per B (A 3, B 2, C and D 1).
 * A row's length is read once (the fenced subquery `c`), not once per matched term: each
 * read of a compressed tsvector decompresses it again. It is read as float8, as postingScores
 * reads a posting's: the expression's constants are numeric literals, and `0.75 * dl` of an
 * integer dl was numeric arithmetic and a numeric-to-float8 conversion per row (~12 % of a
 * rank statement on 100,000 owner episodes); with float8 operands the constants are cast once,
 * at planning, and every product is the same double (0.75 · an integer is exact either way).
 */
export const bm25Scores = (cand: string, terms = 'w', groups?: readonly string[]) =>
  `SELECT c.id,
          ${sums(`x.idf * x.tf * ${K1 + 1} / (x.tf + ${K1} * (1 - ${B} + ${B} * c.dl / st.avgdl))`, 'x.term', groups, ' ORDER BY x.term')}
   FROM (SELECT r.id, r.search, length(r.search)::float8 AS dl FROM ${cand} r OFFSET 0) c
   CROSS JOIN LATERAL (
     SELECT w.term, w.idf,
            (cardinality(u.weights) + 2 * cardinality(array_positions(u.weights, 'A'))
             + cardinality(array_positions(u.weights, 'B')))::float8 AS tf
     FROM unnest(ts_delete(c.search, tsvector_to_array(ts_delete(c.search, ARRAY(SELECT term FROM ${terms}))))) AS u
     JOIN w ON w.term = u.lexeme) x
   CROSS JOIN st
   GROUP BY c.id`;

/** The target's rows holding any query term, as a subquery `(id, search)`. */
export function matching(t: Target, terms: readonly string[], p: Params): string {
  return `(SELECT ${t.alias}.id, ${t.alias}.search FROM ${t.from}
           WHERE ${t.where} AND ${t.alias}.search @@ ${p.add(orQuery(terms))}::tsquery)`;
}

/** Postings read per query term unless configured otherwise (ENGRAM_KEYWORD_DEPTH). */
export const DEFAULT_KEYWORD_DEPTH = 1000;

/**
 * Postings read per query term, best `impact` first (migration 0014): a document holding a
 * term beyond this depth of its list is not a keyword candidate through that term. Below
 * it (every list of an owner with at most this many documents per term) the candidates
 * are exactly the documents matching a query term. Deeper reads find BM25's exact best more
 * often on a large memory whose lists are long, at a cost growing with the depth
 * (docs/search.md, "How exact the keyword route is").
 */
export const postingsDepth = (pool: number, depth = DEFAULT_KEYWORD_DEPTH) => Math.max(depth, 4 * pool);

/**
 * BM25 of the owner's documents found in search_postings for the query terms, each term's
 * list read best first to `depth` (needs `st`, `w`); tf and length as stored (read as float8,
 * see bm25Scores), so the score equals bm25Scores' for the same document. `score`, or with
 * `groups` one sum per query (see sums) over the same postings, read once for all the
 * queries. Postings of equal impact are read in doc_id order (descending, as a backward scan
 * of the primary key reads them), so the postings read at the depth are the same whatever
 * plan reads them.
 */
export function postingScores(t: Target, depth: number, p: Params, groups?: readonly string[]): string {
  return `SELECT x.doc_id AS id,
          ${sums(`w.idf * x.tf * ${K1 + 1} / (x.tf + ${K1} * (1 - ${B} + ${B} * x.dl / st.avgdl))`, 'w.term', groups)}
   FROM w CROSS JOIN st
   CROSS JOIN LATERAL (
     SELECT s.doc_id, s.tf::float8 AS tf, s.dl::float8 AS dl FROM search_postings s
     WHERE ${countsKey(p.add(t.kind), 's.')} AND s.term = w.term
     ORDER BY s.impact DESC, s.doc_id DESC LIMIT ${p.add(depth)}) x
   GROUP BY x.doc_id`;
}

export const normOf = (score: number, ref: number) => (ref > 0 ? Math.min(1, score / ref) : 0);
