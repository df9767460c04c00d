import type { Sql } from '../../core/db.js';
import { countsKey } from './keyword.js';
import type { StatKind } from './scope.js';

/**
 * Offline query expansion by pseudo-relevance feedback (RM3-like, no model): words of the
 * best first-round hits that are rare in the owner's scope and not already in the query
 * are appended to it. For a multi-hop question this pulls in the second hop's vocabulary
 * (a name, a place, an event the first hits mention).
 *
 *   weight(w) = Σ_hits 1/(rank+1) · [w in hit] · idf(w)
 *
 * idf comes from the owner's write-time term statistics (kind `fact`), over the word's stem.
 * A word is a run of letters and digits holding a letter: a hit's date ("[2024-05-08] ...")
 * and numbers are not words of its topic.
 */
const STOP = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
   can could did do does doing down during each few for from further had has have having he her here hers herself him
   himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other
   our ours out over own same she should so some such than that the their theirs them then there these they this those
   through to too under until up very was we were what when where which while who whom why will with would you your
   said told asked answered also really like get got going gonna yeah yes thanks thank hey hi oh wow lot things thing
   something much many well good great`.split(/\s+/),
);

/** Words appended to the question unless told otherwise. */
export const EXPANSION_WORDS = 3;

export interface ExpansionOptions {
  /** Words appended (default EXPANSION_WORDS). */
  words?: number;
  kind?: StatKind;
}

export async function expandQuery(
  q: Sql,
  scope: { tenantId: string; appId: string; projectId: string; ownerId: string },
  query: string,
  queryTerms: readonly string[],
  hits: readonly string[],
  opts: ExpansionOptions = {},
): Promise<string | undefined> {
  const weight = new Map<string, number>();
  hits.forEach((text, rank) => {
    const seen = new Set<string>();
    for (const raw of text.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
      const w = raw.replace(/'s$/i, '');
      const lower = w.toLowerCase();
      if (w.length < 3 || STOP.has(lower) || !/\p{L}/u.test(w) || seen.has(lower)) continue;
      seen.add(lower);
      weight.set(w, (weight.get(w) ?? 0) + 1 / (rank + 1));
    }
  });
  if (!weight.size) return undefined;
  const words = [...weight.keys()];
  const rows = await q.query<{ word: string; lexeme: string; idf: number }>(
    `WITH st AS (SELECT greatest(coalesce(sum(docs), 0), 1)::float8 AS n FROM search_counts
                 WHERE ${countsKey('$5')} AND term = ''),
     lx AS (SELECT w.word, u.lexeme FROM jsonb_array_elements_text($6::jsonb) AS w(word)
            CROSS JOIN LATERAL unnest(to_tsvector('english', w.word)) AS u),
     df AS (SELECT term, sum(docs)::float8 AS df FROM search_counts
            WHERE ${countsKey('$5')} AND term = ANY (ARRAY(SELECT lexeme FROM lx)) GROUP BY term)
     SELECT lx.word, lx.lexeme, ln(1 + (st.n - coalesce(df.df, 0) + 0.5) / (coalesce(df.df, 0) + 0.5))::float8 AS idf
     FROM lx CROSS JOIN st LEFT JOIN df ON df.term = lx.lexeme`,
    [scope.tenantId, scope.appId, scope.projectId, scope.ownerId, opts.kind ?? 'fact', JSON.stringify(words)],
  );
  const have = new Set(queryTerms);
  const best = new Map<string, { word: string; score: number }>();
  // Equal scores are decided by the word, not by the order the statement returned the rows in.
  const before = (a: { word: string; score: number }, b: { word: string; score: number }) =>
    b.score - a.score || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0);
  for (const r of rows) {
    if (have.has(r.lexeme)) continue;
    const cand = { word: r.word, score: (weight.get(r.word) ?? 0) * Number(r.idf) };
    const prev = best.get(r.lexeme);
    if (!prev || before(cand, prev) < 0) best.set(r.lexeme, cand);
  }
  // A word of several lexemes ("O'Brien": o, brien; "follow-up": follow-up, follow, up) can
  // be the best word of each: it is appended once.
  const picked: string[] = [];
  const taken = new Set<string>();
  for (const { word } of [...best.values()].sort(before)) {
    if (picked.length === (opts.words ?? EXPANSION_WORDS)) break;
    if (taken.has(word.toLowerCase())) continue;
    taken.add(word.toLowerCase());
    picked.push(word);
  }
  return picked.length ? `${query} ${picked.join(' ')}` : undefined;
}
