import type { TimeRange } from '../../core/date-range.js';
import { mergeQueries, type PreparedQuery, type RankDeps, type Route, scoreIds } from './hybrid.js';
import { bind, episodeTarget, factTarget, type SearchScope, type Target } from './scope.js';

/**
 * Words of a question that ask nothing beside its span of time: "What did I do last week?",
 * "What happened in June?", "What did Theo get up to last weekend?" (a name is whose time it
 * is).
 */
const NOTHING_ELSE = new Set(
  `what did do does doing done i we me my our you he she they his her their happen happened happening get got
up to go went going on at in during the a an anything something else any was were is are have has had with
and or all that this there`.split(/\s+/),
);

/**
 * True when a question asks about its span of time (`phrase`, the words naming it) and
 * nothing else: only then does the span, not the question's words, decide (a question with
 * words of its own, "When did she go camping in June?", finds its facts by them and by the
 * dates they carry: a fact's time is when it was told, not always when it happened).
 */
export function asksOnlyTime(text: string, phrase: string): boolean {
  const rest = text.replace(phrase, ' ');
  const words = rest.match(/[\p{L}][\p{L}'’]*/gu) ?? [];
  return words.every((w, i) => NOTHING_ELSE.has(w.toLowerCase()) || (i > 0 && /^\p{Lu}/u.test(w)));
}

/** The share of its score a fact or episode keeps when it lies outside the time asked about. */
export const OUT_OF_TIME = 0.5;

/** What the search is and what it found so far (changed in place). */
export interface InTimeQuery {
  route: Route;
  queries: PreparedQuery[];
  weights?: number[] | undefined;
  pool: number;
  /** The spans of time the question names (core/date-range.ts askedRange). */
  when: readonly TimeRange[];
}

/**
 * A question about a span of time and nothing else (asksOnlyTime: "What did I do last week?",
 * "What happened in June?"): the owner's facts told in it answer it, though their text carries
 * no date ("Thanksgiving was so nice, I hosted for the first time", said that week). Up to
 * `pool` of the owner's facts of the span, newest first (one statement), join the candidates,
 * scored by id under the route when the search had not found them (a statement each for the
 * facts and their episodes), and go ahead of every fact and episode outside the span, in the
 * order of their own scores, then newest first. A span with no fact of the owner's changes
 * nothing.
 */
export async function inTime(
  d: RankDeps,
  scope: SearchScope,
  q: InTimeQuery,
  facts: Map<string, number>,
  own: Map<string, number>,
  parent: Map<string, string>,
): Promise<void> {
  const rows = await inSpan(d, factTarget(scope), q);
  if (!rows.length) return;
  const ids = rows.map((r) => r.id);
  const parents = rows.map((r) => r.parent!);
  await Promise.all([
    scoreMissing(d, factTarget(scope), q, ids, facts),
    scoreMissing(d, episodeTarget(scope), q, [...new Set(parents)], own),
  ]);
  for (const r of rows) parent.set(r.id, r.parent!);
  ahead(facts, places(ids));
  // an episode by the place of its newest fact
  ahead(own, places(parents));
}

/**
 * The same for the turns of a target (messages.ts rankMessages): up to `pool` of the turns
 * whose time is in the span, newest first (one statement), join the candidates, scored by id
 * when the search had not found them (one statement), and go ahead of the others.
 */
export async function turnsInTime(
  d: RankDeps,
  target: Target,
  q: InTimeQuery,
  scores: Map<string, number>,
): Promise<void> {
  const rows = await inSpan(d, target, q);
  if (!rows.length) return;
  const ids = rows.map((r) => r.id);
  await scoreMissing(d, target, q, ids, scores);
  ahead(scores, places(ids));
}

/** Up to `pool` of a target's rows whose time is in a span of `q.when`, newest first, with their parent (a fact's episode). */
async function inSpan(
  d: RankDeps,
  target: Target,
  q: InTimeQuery,
): Promise<{ id: string; parent?: string }[]> {
  if (!q.when.length) return [];
  const p = bind(target);
  const a = target.alias;
  const spans = q.when.map((r) => `(${a}.ts >= ${p.add(r.from)} AND ${a}.ts < ${p.add(r.to)})`).join(' OR ');
  return d.db.query<{ id: string; parent?: string }>(
    `SELECT ${a}.id${target.parent ? `, ${target.parent} AS parent` : ''} FROM ${target.from}
     WHERE ${target.where} AND (${spans})
     ORDER BY ${a}.ts DESC, ${a}.id LIMIT ${Math.max(1, Math.floor(q.pool))}`,
    p.values,
  );
}

/** Scores under the route, by id, of the given documents the search had not found (one statement). */
async function scoreMissing(
  d: RankDeps,
  target: Target,
  q: InTimeQuery,
  ids: readonly string[],
  scores: Map<string, number>,
): Promise<void> {
  const missing = ids.filter((id) => !scores.has(id));
  if (!missing.length) return;
  const maps = await scoreIds(d, () => target, q.route, q.queries, missing);
  for (const [id, s] of mergeQueries(maps, q.weights)) scores.set(id, s);
}

/** Newest first among equal scores: a hair per place in the span's order, a key by its first place. */
function places(keys: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [i, k] of keys.entries()) if (!out.has(k)) out.set(k, (keys.length - i) * HAIR);
  return out;
}

const HAIR = 1e-9;

/**
 * The scores of `inside` (with a hair each) put ahead of every other: the others keep
 * OUT_OF_TIME of theirs; one inside takes OUT_OF_TIME of the best other plus the rest of its
 * own, so it stays within the route's range (hybrid scores are at most 1) and above them all.
 */
function ahead(scores: Map<string, number>, inside: Map<string, number>): void {
  let best = 0;
  for (const [id, s] of scores) if (!inside.has(id)) best = Math.max(best, s);
  for (const [id, s] of scores)
    scores.set(
      id,
      inside.has(id)
        ? OUT_OF_TIME * best + (1 - OUT_OF_TIME) * Math.max(0, s) + inside.get(id)!
        : OUT_OF_TIME * s,
    );
}
