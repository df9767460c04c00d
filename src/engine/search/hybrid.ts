import type { Db, Sql } from '../../core/db.js';
import type { Embedder } from '../../core/ports.js';
import type { VectorIndex } from '../vector-index.js';
import {
  BM25_REF,
  bm25Scores,
  bm25Stats,
  matching,
  normOf,
  postingScores,
  postingsDepth,
  queryLexemes,
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
  /** Postings read per query term on the keyword route (keyword.ts postingsDepth). */
  depth?: number | undefined;
}

/**
 * A question's words that only frame what it asks: "what kind of", "which type of" (a memory
 * answering it names the thing, seldom its kind, and those words match every memory that says
 * "kind", "kinds of volunteering", while the question's own noun waits), and the words that
 * point back at the conversation itself ("can you remind me", "do you remember", "in our
 * previous chat"), which match any memory that happens to say "reminded" or "chat".
 */
const FRAME = new RegExp(
  [
    '\\b(?:kinds?|types?|sorts?)\\s+of\\b',
    '\\b(?:can|could|would|will)\\s+you\\s+(?:please\\s+)?remind\\s+me\\b',
    '\\bremind\\s+me\\b',
    '\\b(?:do|did)\\s+you\\s+(?:still\\s+)?(?:remember|recall)\\b',
    '\\b(?:in|from|during)\\s+(?:our|my|the|a)\\s+(?:previous|last|earlier|past|recent|other)\\s+(?:conversations?|chats?|discussions?|sessions?|talks?)\\b',
    // How things are now ("What is my current job?", "Where do I currently live?"): asked of
    // the newest memory (current-state.ts), not of one that says "current" ("direct current").
    '\\b(?:currently|nowadays|at\\s+the\\s+moment|these\\s+days)\\b',
    '(?<=\\b(?:my|our|his|her|their|your)\\s+)current\\b',
  ].join('|'),
  'gi',
);
/**
 * A year or a month named relative to now ("this year", "last month"): the search adds the
 * words of the date it names ("2025", "October"), the words a memory carries (its relative
 * dates are written as dates), while "year" and "month" themselves match any memory that
 * tells a duration or an age ("for four years", "six months old").
 */
const RELATIVE_SPAN = /\b(?:this|last|next|past|previous)\s+(?:year|month)\b/gi;
const withoutFrame = (text: string) => text.replace(FRAME, ' ');

/**
 * Idioms whose words say something else than they mean: "what do I do for a living" asks
 * for a job (its "living" would ask where one lives), "how do I get to work" for a commute.
 * Each is read with the word it means, in place of the idiom's or beside them, by both
 * halves: a word embedder reads "living" as near "lives" too.
 */
const IDIOMS: readonly [RegExp, string][] = [
  [/\bfor\s+a\s+living\b/gi, ' job '],
  [
    /\b(?:get|gets|getting|got|go|goes|going|went|travel|travels|travell?ing|come|comes|coming|came)\s+(?:in\s+)?to\s+(?:work|the\s+office)\b/gi,
    '$& commute',
  ],
];
const inPlainWords = (text: string) => IDIOMS.reduce((t, [re, by]) => t.replace(re, by), text);

/**
 * A question's lexemes without its frame's (FRAME) and with its idioms' meaning (IDIOMS):
 * its own terms and those of the dates it names. Without the words of a year or a month named
 * relative to now (RELATIVE_SPAN) unless nothing else is asked ("What did I do last month?").
 */
export async function questionLexemes(db: Sql, text: string): Promise<string[]> {
  const plain = inPlainWords(withoutFrame(text));
  const spanless = plain.replace(RELATIVE_SPAN, ' ');
  if (spanless !== plain) {
    const terms = await queryLexemes(db, spanless);
    if (terms.length) return terms;
  }
  const terms = await queryLexemes(db, plain);
  // A question of its frame alone ("What am I doing these days?") still asks with its words.
  return terms.length || plain === text ? terms : queryLexemes(db, inPlainWords(text));
}

/**
 * A query's lexemes (a statement) and its embedding (of its idioms' meaning), asked for at
 * once (`want` skips either). An embedder failure, rejected or thrown before a promise, comes
 * back as `embedFailed` beside the lexemes, for a caller that falls back to the keyword route.
 */
export async function prepareQuery(
  db: Sql,
  embedder: Embedder,
  text: string,
  want: { terms: boolean; vector: boolean },
): Promise<{ query: PreparedQuery; embedFailed?: { error: unknown } }> {
  const [terms, embedded] = await Promise.all([
    want.terms ? questionLexemes(db, text) : [],
    want.vector
      ? (async () => embedder.embed([inPlainWords(text)]))().then(
          (v) => ({ vector: v[0] }),
          (error: unknown) => ({ error }),
        )
      : undefined,
  ]);
  const query: PreparedQuery = { text, terms };
  if (embedded && 'error' in embedded) return { query, embedFailed: { error: embedded.error } };
  if (embedded) query.vector = embedded.vector;
  return { query };
}

export const fuse = (kwNorm: number, cosine: number) => W_KEYWORD * kwNorm + W_VECTOR * Math.max(0, cosine);

/**
 * A document's halves under each query of a group scored together (see byGroup): raw BM25
 * and its normalised share per query, cosine (null without a vector; the queries share
 * it), and whether the document is one of that query's candidates.
 */
interface Halves {
  kw: number[];
  norm: number[];
  cos: number | null;
}
interface Scored extends Halves {
  id: string;
  hit: boolean[];
  parent?: string;
  /** The parent's halves (scoreRows with parentOf). */
  parentHalves?: Halves;
}

const routeScore = (route: Route, r: Halves, i = 0) =>
  route === 'keyword' ? r.kw[i]! : route === 'vector' ? (r.cos ?? 0) : fuse(r.norm[i]!, r.cos ?? 0);

/**
 * One statement scoring documents of a target under a route for one query or several with
 * the same embedding (a question and its bridged form): either the union of the routes'
 * top `pool` candidates of each query (keyword: BM25 over the owner's postings of the query
 * terms, or over the rows matching a query term when filters narrow the target; vector:
 * the nearest rows within the radius, read once for all the queries), or the given ids.
 * Every returned row carries both halves its route needs under each query, computed
 * exactly, so no candidate misses half its hybrid score because it fell outside the other
 * route's pool; a query's candidates are exactly those it has when scored alone.
 */
async function scoreRows(
  d: RankDeps,
  t: Target,
  route: Route,
  qs: readonly PreparedQuery[],
  pick: Pick,
  parentOf?: Target,
): Promise<Scored[]> {
  const p = bind(t);
  const sql = scoreStatement(d, t, route, qs, pick, p, parentOf);
  if (sql === undefined) return [];
  const rows = await d.db.query<Record<string, unknown> & { id: string; parent?: string }>(sql, p.values);
  return rows.map((r) => {
    const out: Scored = {
      id: r.id,
      ...halvesOf(r, '', qs.length),
      hit: qs.map((_, i) => r[`hit${i}`] !== false),
    };
    if (r.parent !== undefined) out.parent = r.parent;
    if (parentOf && t.parent) out.parentHalves = halvesOf(r, 'p', qs.length);
    return out;
  });
}

/** The rows a statement scores: the union of the routes' candidates, given ids, the children of given parents, or the ids a query of the statement lists. */
type Pick =
  | { pool: number; radius?: number | null | undefined }
  | { ids: readonly string[] }
  | { parents: readonly string[] }
  | { idsOf: string };

/** A row's BM25, its normalised share and cosine per query, from the columns `<prefix>kw<i>`, `<prefix>ref<i>`, `<prefix>cos`. */
function halvesOf(r: Record<string, unknown>, prefix: string, n: number): Halves {
  const kw = Array.from({ length: n }, (_, i) => Number(r[`${prefix}kw${i}`] ?? 0));
  const cos = r[`${prefix}cos`];
  return {
    kw,
    norm: kw.map((x, i) => normOf(x, Number(r[`${prefix}ref${i}`] ?? 0))),
    cos: cos == null ? null : Number(cos),
  };
}

/**
 * The text of scoreRows' statement, its values bound in `p` (undefined: a pool with no
 * route to read candidates from). With `parentOf` (the target of the rows' parents, bound
 * to the same values as `t`), each row also carries its parent's halves (`pkw<i>`,
 * `pref<i>`, `pcos`): the parents of every row scored are scored by id under the parent
 * target, in the same statement, as scoreIds would score them (a parent the target does
 * not see has none, and scores 0).
 */
function scoreStatement(
  d: RankDeps,
  t: Target,
  route: Route,
  qs: readonly PreparedQuery[],
  pick: Pick,
  p: Params,
  parentOf?: Target,
): string | undefined {
  const a = t.alias;
  const many = qs.length > 1;
  // CTE names of query i (the one-query statement keeps the plain names).
  const of = (name: string, i: number) => (many ? `${name}${i}` : name);
  // Query i's sum in kwpost and kwre (see keyword.ts sums).
  const col = (i: number) => (many ? `s${i}` : 'score');
  const terms = [...new Set(qs.flatMap((q) => q.terms))];
  const kwOf = qs.map((q) => route !== 'vector' && q.terms.length > 0);
  const useKw = kwOf.some(Boolean);
  const useVec = route !== 'keyword';
  const ctes: string[] = [];
  // The rows to score, as an array computed once: the final scan then reads them by
  // primary key whatever the planner's row estimates (the embedded store has none).
  let only: string;
  const pool = 'pool' in pick ? pick : undefined;
  if ('ids' in pick)
    only = `ARRAY(SELECT jsonb_array_elements_text(${p.add(JSON.stringify(pick.ids))}::jsonb))`;
  else if ('idsOf' in pick) only = `ARRAY(${pick.idsOf})`;
  else if ('parents' in pick)
    only = `ARRAY(SELECT ${a}.id FROM ${t.from} WHERE ${t.where}
                  AND ${t.parent} IN (SELECT jsonb_array_elements_text(${p.add(JSON.stringify(pick.parents))}::jsonb)))`;
  else only = 'ARRAY(SELECT id FROM ids)';
  // Keyword candidates of an unfiltered target come from the owner's postings, read best
  // first per query term; otherwise from the rows matching a query term (GIN).
  const posted = useKw && pool !== undefined && t.posted === true;
  const sources: string[] = [];
  if (useVec && pool) {
    ctes.push(
      `vec AS (SELECT id FROM ${nearest(d.index, t, { vector: requireVector(qs[0]!), limit: pool.pool, radius: pool.radius }, p)} v)`,
    );
  }
  if (useKw) {
    ctes.push(bm25Stats(t, terms, p));
    // Query i's terms with their idf (several queries: their terms are read together).
    if (many)
      for (const [i, q] of qs.entries())
        ctes.push(
          `w${i} AS (SELECT term, idf FROM w WHERE term = ANY (ARRAY(SELECT jsonb_array_elements_text(${p.add(JSON.stringify(q.terms))}::jsonb))))`,
        );
    const groups = many ? qs.map((_, i) => `w${i}`) : undefined;
    if (posted && pool) {
      // Postings of every query term read once; each query's sum over its own terms.
      const depth = postingsDepth(pool.pool, d.depth);
      ctes.push(`kwpost AS MATERIALIZED (${postingScores(t, depth, p, groups)})`);
      // Scores from the postings read are exact unless a query term's list is longer than
      // the depth read (its df says so): then the query's best candidates are scored again
      // from their own tsvector before the cut.
      const truncated = (i: number) =>
        `(SELECT coalesce(max(df), 0) FROM df${many ? ` WHERE term IN (SELECT term FROM w${i})` : ''}) > ${p.add(depth)}`;
      const rescored: string[] = [];
      qs.forEach((_, i) => {
        if (!kwOf[i]) return;
        ctes.push(
          `${of('kwtop', i)} AS MATERIALIZED (SELECT id, ${col(i)} AS score FROM kwpost${many ? ` WHERE s${i} IS NOT NULL` : ''}
             ORDER BY score DESC, id LIMIT ${p.add(2 * pool.pool)})`,
        );
        rescored.push(`SELECT id FROM ${of('kwtop', i)} WHERE ${truncated(i)}`);
      });
      // One pass over the rows scored from their tsvector, every query's sums at once: the
      // candidates of a query whose lists were cut, and the nearest rows (those outside a
      // query's keyword candidates take that score).
      if (useVec) rescored.push('SELECT id FROM vec');
      ctes.push(
        `kwre AS MATERIALIZED (${bm25Scores(
          `(SELECT ${a}.id, ${a}.search FROM ${t.from} WHERE ${t.where}
            AND ${a}.id = ANY (ARRAY(${rescored.join(' UNION ')})))`,
          'w',
          groups,
        )})`,
      );
      qs.forEach((_, i) => {
        if (!kwOf[i]) return;
        const top = of('kwtop', i);
        const best = of('kwbest', i);
        ctes.push(
          `${best} AS MATERIALIZED (SELECT id, score FROM ${top} WHERE NOT ${truncated(i)}
             UNION ALL SELECT id, ${col(i)} FROM kwre WHERE ${col(i)} IS NOT NULL AND id IN (SELECT id FROM ${top}) AND ${truncated(i)})`,
        );
        ctes.push(
          `${of('kw', i)} AS (SELECT id FROM ${best} ORDER BY score DESC, id LIMIT ${p.add(pool.pool)})`,
        );
        sources.push(`SELECT id FROM ${of('kw', i)}`);
      });
    } else if (!pool && groups) {
      // Given rows scored from their tsvector in one pass for every query (see kwre).
      ctes.push(
        `kwids AS MATERIALIZED (${bm25Scores(
          `(SELECT ${a}.id, ${a}.search FROM ${t.from} WHERE ${t.where} AND ${a}.id = ANY (${only}))`,
          'w',
          groups,
        )})`,
      );
      qs.forEach((_, i) => {
        if (kwOf[i]) ctes.push(`kwall${i} AS (SELECT id, s${i} AS score FROM kwids WHERE s${i} IS NOT NULL)`);
      });
    } else
      qs.forEach((q, i) => {
        if (!kwOf[i]) return;
        const cand = pool
          ? matching(t, q.terms, p)
          : `(SELECT ${a}.id, ${a}.search FROM ${t.from} WHERE ${t.where} AND ${a}.id = ANY (${only}))`;
        ctes.push(`${of('kwall', i)} AS MATERIALIZED (${bm25Scores(cand, of('w', i))})`);
        if (pool) {
          ctes.push(
            `${of('kw', i)} AS (SELECT id FROM ${of('kwall', i)} ORDER BY score DESC, id LIMIT ${p.add(pool.pool)})`,
          );
          sources.push(`SELECT id FROM ${of('kw', i)}`);
        }
      });
  }
  if (useVec && pool) sources.push('SELECT id FROM vec');
  if (pool) {
    if (!sources.length) return undefined;
    ctes.push(`ids AS MATERIALIZED (${sources.join(' UNION ')})`);
  }
  if (posted)
    qs.forEach((_, i) => {
      if (!kwOf[i]) return;
      // BM25 of the candidates: the keyword candidates' as above, the nearest rows' outside
      // them from the pass over their tsvector.
      const best = of('kwbest', i);
      const scored = [`SELECT id, score FROM ${best} WHERE id = ANY (ARRAY(SELECT id FROM ids))`];
      if (useVec)
        scored.push(
          `SELECT id, ${col(i)} FROM kwre WHERE ${col(i)} IS NOT NULL AND id IN (SELECT id FROM vec EXCEPT SELECT id FROM ${best})`,
        );
      ctes.push(`${of('kwall', i)} AS MATERIALIZED (${scored.join(' UNION ALL ')})`);
    });
  const cos = useVec
    ? `CASE WHEN ${a}.embedding IS NOT NULL THEN (1 - ${distance(d.index, t, requireVector(qs[0]!), p)})::float8 END`
    : 'NULL::float8';
  // BM25 of a row: one lookup in a map built once, not a join the planner might repeat.
  const cols = qs.flatMap((q, i) => [
    kwOf[i]
      ? `((SELECT jsonb_object_agg(id, score) FROM ${of('kwall', i)}) ->> ${a}.id)::float8 AS kw${i}`
      : `NULL::float8 AS kw${i}`,
    `${kwOf[i] ? refOf(q, p, of('w', i)) : 'NULL::float8'} AS ref${i}`,
    // A row of the union is query i's candidate when its keyword or vector half found it.
    ...(many && pool
      ? [
          `(${[...(kwOf[i] ? [`${a}.id IN (SELECT id FROM ${of('kw', i)})`] : []), ...(useVec ? [`${a}.id IN (SELECT id FROM vec)`] : []), 'FALSE'].join(' OR ')}) AS hit${i}`,
        ]
      : []),
  ]);
  let parentJoin = '';
  const parentCols: string[] = [];
  if (parentOf && t.parent) {
    // The parent target's condition reads the same values at the same places.
    if (JSON.stringify(parentOf.params) !== JSON.stringify(t.params))
      throw new Error('a parent target must bind the values of its child target');
    ctes.push(
      `pids AS MATERIALIZED (SELECT DISTINCT ${t.parent} AS id FROM ${t.from} WHERE ${t.where} AND ${a}.id = ANY (${only}))`,
    );
    // Its own WITH: its CTEs (st, w, ...) are the parent kind's, and shadow this statement's inside it.
    ctes.push(
      `par AS MATERIALIZED (${scoreStatement(d, parentOf, route, qs, { idsOf: 'SELECT id FROM pids' }, p)})`,
    );
    parentJoin = ` LEFT JOIN par ON par.id = ${t.parent}`;
    parentCols.push(
      ...qs.flatMap((_, i) => [`par.kw${i} AS pkw${i}`, `par.ref${i} AS pref${i}`]),
      'par.cos AS pcos',
    );
  }
  return `${ctes.length ? `WITH ${ctes.join(',\n')}` : ''}
     SELECT ${a}.id, ${cols.join(', ')}, ${cos} AS cos${t.parent ? `, ${t.parent} AS parent` : ''}${parentCols.map((c) => `, ${c}`).join('')}
     FROM ${t.from}${parentJoin}
     WHERE ${t.where} AND ${a}.id = ANY (${only})`;
}

/**
 * Runs `run` once per group of queries one statement can score together (the same
 * embedding, or on the keyword route the same own terms: a question and its bridged
 * form), concurrently; the results in the order of `queries`.
 */
async function byGroup<T>(
  queries: readonly PreparedQuery[],
  run: (group: PreparedQuery[]) => Promise<T[]>,
): Promise<T[]> {
  const groups = new Map<unknown, number[]>();
  queries.forEach((q, i) => {
    const key = q.vector ?? (q.own ?? q.terms).join(' ');
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out = new Array<T>(queries.length);
  await Promise.all(
    [...groups.values()].map(async (idx) => {
      const res = await run(idx.map((i) => queries[i]!));
      idx.forEach((i, j) => {
        out[i] = res[j]!;
      });
    }),
  );
  return out;
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

/** Each query's candidates among scored rows, with their route scores. */
const hitsOf = (route: Route, rows: readonly Scored[], n: number): RankedRow[][] =>
  Array.from({ length: n }, (_, i) =>
    rows.filter((r) => r.hit[i]).map((r) => ({ id: r.id, score: routeScore(route, r, i), parent: r.parent })),
  );

/** rankTarget's hits with each one's parent id when the target names one. */
export async function rankRows(
  d: RankDeps,
  t: Target,
  route: Route,
  q: PreparedQuery,
  pool: number,
  radius?: number | null,
): Promise<RankedRow[]> {
  if (pool <= 0) return [];
  return hitsOf(route, await scoreRows(d, t, route, [q], { pool, radius }), 1)[0]!;
}

/**
 * rankRows of every query of a search over one target (a fresh target per statement).
 * Queries with the same embedding (a question and its bridged form) are ranked by one
 * statement: the nearest rows and the postings of their terms are read once, and each
 * query gets exactly the candidates and scores it gets alone.
 */
export async function rankEach(
  d: RankDeps,
  t: () => Target,
  route: Route,
  queries: readonly PreparedQuery[],
  pool: number,
  radius?: number | null,
): Promise<RankedRow[][]> {
  if (pool <= 0) return queries.map(() => []);
  return byGroup(queries, async (qs) =>
    hitsOf(route, await scoreRows(d, t(), route, qs, { pool, radius }), qs.length),
  );
}

/** A query's hits over a target with parents, and the route scores of the parents its statement scored. */
export interface HitsWithParents {
  hits: RankedRow[];
  /** Parent id -> its own route score under the query (0: a parent the parent target does not see). */
  parents: Map<string, number>;
}

/**
 * rankEach over a target whose rows have a parent (facts), each statement also scoring the
 * parents of all the rows it scored under the parent target (`parentOf`, bound to the same
 * values), by id, as scoreIds would: a search that needs the own score of an episode it
 * reached through a fact reads it here, instead of in a statement after this one.
 */
export async function rankEachWithParents(
  d: RankDeps,
  t: () => Target,
  parentOf: () => Target,
  route: Route,
  queries: readonly PreparedQuery[],
  pool: number,
  radius?: number | null,
): Promise<HitsWithParents[]> {
  if (pool <= 0) return queries.map(() => ({ hits: [], parents: new Map() }));
  return byGroup(queries, async (qs) => {
    const rows = await scoreRows(d, t(), route, qs, { pool, radius }, parentOf());
    const hits = hitsOf(route, rows, qs.length);
    return qs.map((_, i) => ({
      hits: hits[i]!,
      parents: new Map(
        rows.flatMap((r) =>
          r.parent !== undefined && r.parentHalves ? [[r.parent, routeScore(route, r.parentHalves, i)]] : [],
        ),
      ),
    }));
  });
}

/**
 * Scores of specific documents of a target under a route for each query (0 where a route
 * finds nothing). One statement per group of queries with the same embedding.
 */
export async function scoreIds(
  d: RankDeps,
  t: () => Target,
  route: Route,
  queries: readonly PreparedQuery[],
  ids: readonly string[],
): Promise<Map<string, number>[]> {
  if (!ids.length) return queries.map(() => new Map());
  return byGroup(queries, async (qs) => {
    const rows = await scoreRows(d, t(), route, qs, { ids });
    return qs.map((_, i) => {
      const out = new Map<string, number>(ids.map((id) => [id, 0]));
      for (const r of rows) out.set(r.id, routeScore(route, r, i));
      return out;
    });
  });
}

/**
 * Scores for each query of the documents of a target (one with a parent) whose parent is
 * one of the given ids, e.g. every fact of the episodes a search returns. One statement
 * per group of queries with the same embedding.
 */
export async function scoreChildren(
  d: RankDeps,
  t: () => Target,
  route: Route,
  queries: readonly PreparedQuery[],
  parents: readonly string[],
): Promise<Map<string, number>[]> {
  if (!parents.length || !t().parent) return queries.map(() => new Map());
  return byGroup(queries, async (qs) => {
    const rows = await scoreRows(d, t(), route, qs, { parents });
    return qs.map((_, i) => new Map(rows.map((r) => [r.id, routeScore(route, r, i)])));
  });
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

/** Σ idf of the query's own terms (needs the `w` CTE, or `wq`: the query's terms with their idf). */
const refOf = (q: PreparedQuery, p: Params, wq = 'w') =>
  q.own
    ? `(SELECT sum(idf) FROM w WHERE term = ANY (ARRAY(SELECT jsonb_array_elements_text(${p.add(JSON.stringify(q.own))}::jsonb))))::float8`
    : wq === 'w'
      ? BM25_REF
      : `(SELECT sum(idf) FROM ${wq})::float8`;

function requireVector(q: PreparedQuery): number[] {
  if (!q.vector) throw new Error('vector route without a query embedding');
  return q.vector;
}
