import type { SearchData } from '../../contract/search.js';
import type { TimeRange } from '../../core/date-range.js';
import { EPISODE_COLUMNS, type EpisodeRow, episodeItem, type FactRow } from '../memory/serialize.js';
import { currentStateWins } from './current-state.js';
import {
  mergeQueries,
  type PreparedQuery,
  type RankDeps,
  type Route,
  rankEach,
  rankEachWithParents,
  scoreChildren,
  scoreIds,
  scoreMap,
} from './hybrid.js';
import { inTime } from './in-time.js';
import { asksCurrentState } from './lexicon.js';
import { ASSISTANT_WEIGHT, type SourceRoles, toldByUser } from './own-words.js';
import { episodeTarget, factTarget, type SearchScope } from './scope.js';
import { lower, round } from './score.js';

/**
 * The user path: episodes reached directly or through their atomic facts. Facts and
 * episodes are ranked separately under the route. A fact's score is taken in the context
 * of its episode (see inContext); an episode's score is the better of its own score and
 * its best fact's (a short fact matching a short question lifts the episode it belongs
 * to). Returned episodes carry all their facts, each with its score, best first.
 */
export type SearchEpisode = SearchData['episodes'][number];

export interface EpisodeQuery {
  route: Route;
  queries: PreparedQuery[];
  /** Weight of each query's scores when merged (default 1 each). */
  weights?: number[];
  /** Candidates taken per route, per kind, per query. */
  pool: number;
  radius?: number | null | undefined;
  /**
   * The asker asks about herself (own-words.ts asksAboutSelf): what an assistant said is no
   * current answer of hers.
   */
  aboutSelf?: boolean;
  /** The spans of time the question names (in-time.ts): the facts told in them lead. */
  when?: readonly TimeRange[] | undefined;
}

export interface RankedEpisodes {
  /** Episode id -> score, best first. */
  episodes: [string, number][];
  /** Scores of the facts found as candidates. */
  facts: Map<string, number>;
  /** Episodes' own route scores (before facts lift them). */
  own: Map<string, number>;
  /** For a question about herself: the roles of the turns the best episodes' facts rest on. */
  roles?: SourceRoles;
}

export async function rankEpisodes(
  d: RankDeps,
  scope: SearchScope,
  q: EpisodeQuery,
): Promise<RankedEpisodes> {
  const factMaps: Map<string, number>[] = [];
  const episodeMaps: Map<string, number>[] = [];
  const parent = new Map<string, string>();
  // Every query's facts and episodes at once (independent statements). On PostgreSQL, which
  // runs a search's statements side by side, the facts' statements also score the episodes
  // of their facts: one statement fewer on the way to the answer. The embedded store runs
  // its statements one after another, where scoring every fact's episode costs more than
  // the statement it saves (docs/search.md): there the missing ones are scored by id below.
  const factsRanked =
    d.db.driver === 'postgres'
      ? rankEachWithParents(
          d,
          () => factTarget(scope),
          () => episodeTarget(scope),
          q.route,
          q.queries,
          q.pool,
          q.radius,
        )
      : rankEach(d, () => factTarget(scope), q.route, q.queries, q.pool, q.radius).then((perQuery) =>
          perQuery.map((hits) => ({ hits, parents: new Map<string, number>() })),
        );
  const [factsPerQuery, episodesPerQuery] = await Promise.all([
    factsRanked,
    rankEach(d, () => episodeTarget(scope), q.route, q.queries, q.pool, q.radius),
  ]);
  for (const { hits } of factsPerQuery) {
    factMaps.push(scoreMap(hits));
    for (const r of hits) if (r.parent) parent.set(r.id, r.parent);
  }
  episodeMaps.push(...episodesPerQuery.map(scoreMap));
  const facts = mergeQueries(factMaps, q.weights);
  const own = mergeQueries(episodeMaps, q.weights);
  // Episodes reached only through a fact still need their own score (the fact's context)
  // under every query: read by the facts' statements on PostgreSQL, except under a query
  // whose statement did not see that fact (another embedding: agentic rounds), scored here.
  const missing = [...new Set(parent.values())].filter((id) => !own.has(id));
  if (missing.length) {
    const scored = factsPerQuery.map((r) => r.parents);
    const lacking = q.queries.flatMap((_, i) => (missing.some((id) => !scored[i]!.has(id)) ? [i] : []));
    if (lacking.length) {
      const ids = missing.filter((id) => lacking.some((i) => !scored[i]!.has(id)));
      const maps = await scoreIds(
        d,
        () => episodeTarget(scope),
        q.route,
        lacking.map((i) => q.queries[i]!),
        ids,
      );
      lacking.forEach((i, k) => {
        for (const [id, s] of maps[k]!) if (!scored[i]!.has(id)) scored[i]!.set(id, s);
      });
    }
    const maps = scored.map((m) => new Map(missing.map((id) => [id, m.get(id) ?? 0])));
    for (const [id, s] of mergeQueries(maps, q.weights)) own.set(id, s);
  }
  if (q.when?.length) await inTime(d, scope, { ...q, when: q.when }, facts, own, parent);
  const question = q.queries[0];
  if (question && asksCurrentState(question.text))
    await currentStateWins(
      d,
      scope,
      { question, aboutSelf: q.aboutSelf === true },
      { facts, own, parent, cap: q.route === 'keyword' ? Infinity : 1 },
    );
  let ranked = combine(facts, own, parent);
  let roles: SourceRoles | undefined;
  if (q.aboutSelf) {
    // A question about herself: a conversation in which she told nothing of herself (requests
    // and an assistant's answers) is no answer's place (own-words.ts toldByUser). Its episode
    // counts at the assistant's weight; its facts, each resting on an assistant's turn, are
    // lowered with the answer's (service.ts focusOnOwnWords).
    const top = ranked.slice(0, q.pool).map(([id]) => id);
    const read = await toldByUser(d.db, scope.tenantId, top);
    const told = read.told;
    roles = read.roles;
    const untold = new Set(top.filter((id) => !told.has(id)));
    if (untold.size)
      ranked = ranked
        .map(([id, s]): [string, number] => [id, untold.has(id) ? lower(s, ASSISTANT_WEIGHT) : s])
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  }
  return { episodes: ranked, facts, own, roles };
}

/** Episode scores: each episode's own, or its best fact's in its context when better; best first. */
function combine(
  facts: ReadonlyMap<string, number>,
  own: ReadonlyMap<string, number>,
  parent: ReadonlyMap<string, string>,
): [string, number][] {
  const episodes = new Map(own);
  for (const [factId, episodeId] of parent) {
    const s = inContext(facts.get(factId) ?? 0, own.get(episodeId) ?? 0);
    if (s > (episodes.get(episodeId) ?? Number.NEGATIVE_INFINITY)) episodes.set(episodeId, s);
  }
  return [...episodes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Loads the chosen episodes (in the given order) with every fact scored. */
export async function loadEpisodes(
  d: RankDeps,
  scope: SearchScope,
  q: EpisodeQuery,
  chosen: [string, number][],
  known: Map<string, number>,
  own: Map<string, number>,
  readable: boolean,
): Promise<SearchEpisode[]> {
  if (!chosen.length) return [];
  const ids = JSON.stringify(chosen.map(([id]) => id));
  // Every fact of the chosen episodes is scored while they load (the ones ranked above
  // keep their score): one statement per group of queries beside the loads, not one after them.
  const [rows, facts, childMaps] = await Promise.all([
    d.db.query<EpisodeRow>(
      `SELECT ${EPISODE_COLUMNS} FROM episodes
       WHERE tenant_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
      [scope.tenantId, ids],
    ),
    d.db.query<FactRow>(
      `SELECT id, episode_id, content, source_message_ids FROM atomic_facts
       WHERE tenant_id = $1 AND episode_id IN (SELECT jsonb_array_elements_text($2::jsonb)) AND deleted_at IS NULL
       ORDER BY ts, id`,
      [scope.tenantId, ids],
    ),
    scoreChildren(
      d,
      () => factTarget(scope),
      q.route,
      q.queries,
      chosen.map(([id]) => id),
    ),
  ]);
  const children = mergeQueries(childMaps, q.weights);
  const scores = new Map(known);
  for (const f of facts) if (!known.has(f.id)) scores.set(f.id, children.get(f.id) ?? 0);
  const byEpisode = new Map<string, FactRow[]>();
  for (const f of facts) byEpisode.set(f.episode_id, [...(byEpisode.get(f.episode_id) ?? []), f]);
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const out: SearchEpisode[] = [];
  for (const [id, score] of chosen) {
    const row = rowById.get(id);
    if (!row) continue;
    const item = episodeItem(row, byEpisode.get(id) ?? [], scope.ownerId, readable);
    // Sorted by the exact score before it is rounded: a fact lifted a hair above another of
    // its episode (current-state.ts, in-time.ts) stays above it though both show the same
    // rounded score.
    const scored = item.atomic_facts
      .map((f) => ({ f, exact: inContext(scores.get(f.id) ?? 0, own.get(id) ?? 0) }))
      .sort((a, b) => b.exact - a.exact)
      .map(({ f, exact }) => ({ ...f, score: round(exact) }));
    out.push({ ...item, atomic_facts: scored, score: round(score) });
  }
  return out;
}

/**
 * A fact's score in the context of its episode: (fact + CONTEXT · episode) / (1 + CONTEXT).
 * A fact whose surrounding conversation also matches the query ranks above an isolated
 * look-alike; the division keeps hybrid scores in 0–1.
 */
export const CONTEXT = 0.5;
export const inContext = (fact: number, episode: number) => (fact + CONTEXT * episode) / (1 + CONTEXT);
