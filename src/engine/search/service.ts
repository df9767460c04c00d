import type { SearchData, SearchInput } from '../../contract/search.js';
import { askedRange, type TimeRange } from '../../core/date-range.js';
import { dayKey, mentionsDate, resolveRelativeDates } from '../../core/dates.js';
import type { Db } from '../../core/db.js';
import type { Logger } from '../../core/log.js';
import type { Embedder, Llm, Reranker } from '../../core/ports.js';
import { PROFILE_COLUMNS, type ProfileRow, profileItem } from '../memory/serialize.js';
import { VectorIndex } from '../vector-index.js';
import { loadCases, loadSkills, rankCases, rankSkills, type SearchCase, type SearchSkill } from './agent.js';
import { DEFAULT_MAX_ROUNDS, type RoundHit, runAgentic } from './agentic.js';
import { ownerNewest } from './anchor.js';
import { bestFacts } from './best-facts.js';
import { EMBEDDER_UNAVAILABLE } from './context.js';
import { type EpisodeQuery, loadEpisodes, rankEpisodes, type SearchEpisode } from './episodes.js';
import { expandQuery } from './expand.js';
import { type PreparedQuery, prepareQuery, questionLexemes, type RankDeps, type Route } from './hybrid.js';
import { asksOnlyTime } from './in-time.js';
import { asksCurrentState, expandTerms } from './lexicon.js';
import { type MessageHit, pinnedUnprocessed, rankMessages, type ScoredMessage } from './messages.js';
import { ownNames } from './own-names.js';
import { ASSISTANT_WEIGHT, asksAboutSelf, focusOnOwnWords, type SourceRoles } from './own-words.js';
import { focusOnNamedPeople, OTHER_PERSON_WEIGHT } from './people.js';
import { readsOnce } from './reads-once.js';
import { rerankHits } from './rerank-hits.js';
import type { SearchScope } from './scope.js';

/**
 * POST /api/v2/memory/search. A user owner gets episodes (with scored atomic facts: the
 * answer's top_k best and each episode's best, best-facts.ts), the profile when asked and
 * unprocessed messages; an agent owner gets agent cases and skills (and unprocessed
 * messages of its sessions). Every array is always present. Scores per method are defined
 * in docs/search.md.
 */
export const DEFAULT_TOP_K = 10;
/** The number of hits a request's top_k asks for (-1: the engine's default). */
export const topKOf = (topK: number) => (topK === -1 ? DEFAULT_TOP_K : topK);
/** Weight of a query's bridged form (lexicon.ts) against the query itself. */
export const BRIDGE_WEIGHT = 0.9;
/**
 * The lowest share of its score the people and own-words steps leave a turn (both may lower
 * one): turns are ranked that far beyond the cut, so a turn those steps lift into it is
 * there to be lifted (rankMessages).
 */
export const SPARE = OTHER_PERSON_WEIGHT * ASSISTANT_WEIGHT;

export interface SearchDeps {
  db: Db;
  embedder: Embedder;
  llm?: Llm | undefined;
  reranker?: Reranker | undefined;
  log: Logger;
  /** Set up at start (VectorIndex.setup); built lazily on first search otherwise. */
  vectorIndex?: VectorIndex | undefined;
  /** Most retrieval rounds of an agentic search (default 3). */
  agenticRounds?: number;
  /** Postings read per query term on the keyword route (default DEFAULT_KEYWORD_DEPTH). */
  keywordDepth?: number | undefined;
}

interface Retrieved {
  episodes: SearchEpisode[];
  cases: SearchCase[];
  skills: SearchSkill[];
  /** Extracted turns and turns not yet extracted. */
  messages: ScoredMessage[];
  unprocessed: MessageHit[];
  /** The best hits, best first (for agentic judgement and expansion). */
  texts: RoundHit[];
}

export class SearchService {
  private index: Promise<VectorIndex> | undefined;

  constructor(private readonly deps: SearchDeps) {
    if (deps.vectorIndex) this.index = Promise.resolve(deps.vectorIndex);
  }

  /** The vector index (set up on first use), shared with knowledge-base search. */
  vectorIndex(): Promise<VectorIndex> {
    this.index ??= VectorIndex.setup(this.deps.db, this.deps.embedder, this.deps.log);
    return this.index;
  }

  /**
   * allFacts: each episode with every one of its facts, scored (for a caller that ranks the
   * facts itself, such as MCP recall's context), instead of the answer's best (best-facts.ts).
   * unprocessed: the unprocessed messages even when memory_type narrows the search (v1's
   * raw_messages beside the memory types it asked for).
   */
  async search(
    ctx: { tenantId: string },
    input: SearchInput,
    opts: { allFacts?: boolean; unprocessed?: boolean } = {},
  ): Promise<SearchData> {
    const started = Date.now();
    const isUser = input.user_id != null;
    const scope: SearchScope = {
      tenantId: ctx.tenantId,
      appId: input.app_id,
      projectId: input.project_id,
      ownerId: (input.user_id ?? input.agent_id)!,
      filters: input.filters,
    };
    const topK = topKOf(input.top_k);
    const rerank = input.enable_llm_rerank && this.deps.reranker !== undefined;
    const cut = rerank ? Math.max(20, 2 * topK) : topK;
    const pool = Math.max(50, 5 * topK);
    // An agentic search reads through a store that answers a repeated statement once: each of
    // its rounds ranks the queries of the rounds before it again (reads-once.ts). The other
    // methods send no statement twice.
    const db = input.method === 'agentic' ? readsOnce(this.deps.db) : this.deps.db;
    const d: RankDeps = { db, index: await this.vectorIndex(), depth: this.deps.keywordDepth };
    const metadata: SearchData['metadata'] = {
      method: input.method,
      degraded: false,
      queries: [input.query],
      took_ms: 0,
    };

    let route: Route = input.method === 'agentic' ? 'hybrid' : input.method;
    // The lexemes (a statement) and the embedding at once. The vector route reads the
    // lexemes only for a question about the current state (current-state.ts, newestWins).
    const prepareOnce = (text: string) =>
      prepareQuery(db, this.deps.embedder, text, {
        terms: route !== 'vector' || asksCurrentState(text),
        vector: route !== 'keyword',
      });
    const prepared = new Map<string, Promise<PreparedQuery>>();
    const prepare = (text: string): Promise<PreparedQuery> => {
      let p = prepared.get(text);
      if (!p) {
        p = prepareOnce(text).then((r) => {
          if (r.embedFailed) throw r.embedFailed.error;
          return r.query;
        });
        prepared.set(text, p);
      }
      return p;
    };
    // The question itself: a failing embedder turns hybrid and agentic into the keyword
    // route on the lexemes already read; any other failure (the lexemes statement's) fails
    // the search as it is.
    const asked = await prepareOnce(input.query);
    if (asked.embedFailed) {
      if (route === 'vector') throw asked.embedFailed.error;
      this.deps.log.warn('search: query embedding failed, using keyword route', {
        error: asked.embedFailed.error,
      });
      route = 'keyword';
      metadata.degraded = true;
      metadata.degraded_reason = EMBEDDER_UNAVAILABLE;
    }
    const first = asked.query;
    prepared.set(input.query, Promise.resolve(first));

    const wantEpisodes = isUser && input.memory_type !== 'profile';
    const wantProfile = isUser && (input.include_profile || input.memory_type === 'profile');
    const wantCases = !isUser && input.memory_type !== 'agent_skill';
    const wantSkills = !isUser && input.memory_type !== 'agent_case';
    // memory_type narrows to one memory kind: no turns in either list.
    const wantUnprocessed = input.memory_type == null || opts.unprocessed === true;
    const wantMessages = input.memory_type == null;
    const floor = input.min_score ?? Number.NEGATIVE_INFINITY;
    // min_score is a floor on the final score: with a reranker, the reranker's. Its candidates
    // (episodes, cases, skills) are then not dropped by their fused score first; the floor
    // applies once, after rerank (keep below). Turns are not reranked: their floor stands.
    const candidateFloor = rerank ? Number.NEGATIVE_INFINITY : floor;
    const pinned = wantUnprocessed ? await pinnedUnprocessed(db, scope) : undefined;
    // The profile depends only on the request: read it while the memories are ranked.
    const profiles = wantProfile ? this.profiles(db, scope) : Promise.resolve([]);
    profiles.catch(() => {}); // a failure still fails the search where it is awaited

    // The owner's newest memory, read at most once per search (anchor.ts): a user's relative
    // dates and a question's span of time are also counted from it.
    let newestRead: Promise<number | undefined> | undefined;
    const newest = () => {
      newestRead ??= ownerNewest(db, scope);
      return newestRead;
    };
    // The span of time the question names, for the episodes' ranking (in-time.ts), read while
    // the question is prepared.
    const spans = wantEpisodes ? this.askedRanges(input.query, newest) : Promise.resolve([]);
    spans.catch(() => {}); // a failure still fails the search where it is awaited

    let last: { key: string; result: Retrieved } | undefined;
    const retrieve = async (queries: string[], weights: number[]): Promise<Retrieved> => {
      const key = JSON.stringify([queries, weights, route]);
      if (last?.key === key) return last.result;
      const own = await Promise.all(queries.map(prepare));
      const [bridged, when] = await Promise.all([
        Promise.all(own.map((p) => this.bridge(db, scope, p, route, isUser ? { newest } : undefined))),
        spans,
      ]);
      const q: EpisodeQuery = {
        route,
        queries: [...own, ...bridged.flatMap((b) => (b ? [b] : []))],
        weights: [...weights, ...bridged.flatMap((b, i) => (b ? [(weights[i] ?? 1) * BRIDGE_WEIGHT] : []))],
        pool,
        radius: input.radius,
        aboutSelf: isUser && asksAboutSelf(input.query),
        when,
      };
      // The roles of the turns the best episodes' facts rest on, read while they were ranked
      // for a question about herself (episodes.ts), so the answer's step need not read them again.
      let roles: SourceRoles | undefined;
      // The kinds are ranked and loaded at once (independent statements).
      const [unprocessed, messages, episodes, cases, skills] = await Promise.all([
        pinned ?? (wantUnprocessed ? rankMessages(d, scope, 'unextracted', q, topK, floor, SPARE) : []),
        wantMessages ? rankMessages(d, scope, 'extracted', q, cut, floor, SPARE) : [],
        (async () => {
          if (!wantEpisodes) return [];
          const ranked = await rankEpisodes(d, scope, q);
          roles = ranked.roles;
          const chosen = ranked.episodes.filter(([, s]) => s >= candidateFloor).slice(0, cut);
          return loadEpisodes(d, scope, q, chosen, ranked.facts, ranked.own, input.with_readable_episode);
        })(),
        (async () => {
          if (!wantCases) return [];
          const chosen = (await rankCases(d, scope, q)).filter(([, s]) => s >= candidateFloor).slice(0, cut);
          return loadCases(d, scope, chosen);
        })(),
        (async () => {
          if (!wantSkills) return [];
          const chosen = (await rankSkills(d, scope, q)).filter(([, s]) => s >= candidateFloor).slice(0, cut);
          return loadSkills(d, scope, chosen);
        })(),
      ]);
      // A question that names a person: hits about someone else count less (people.ts); a
      // question the user asks about herself: what an assistant said counts less
      // (own-words.ts). Before the texts, so an agentic round reads the answer's own order.
      let result: Retrieved = focusOnNamedPeople(input.query, {
        episodes,
        cases,
        skills,
        messages,
        unprocessed,
        texts: [],
      });
      if (isUser) result = await focusOnOwnWords(db, ctx.tenantId, input.query, result, roles);
      // The turns ranked beyond the cut for those steps (rankMessages' spare) are cut now.
      result.messages = result.messages.slice(0, cut);
      if (!pinned) result.unprocessed = result.unprocessed.slice(0, topK);
      result.texts = [
        ...result.episodes
          .flatMap((e, rank) => e.atomic_facts.map((f) => ({ f, rank, date: e.timestamp.slice(0, 10) })))
          .sort((a, b) => b.f.score - a.f.score || a.rank - b.rank)
          .slice(0, 10)
          .map(({ f, date }) => ({ text: `[${date}] ${f.content}`, score: f.score })),
        ...cases.map((c) => ({ text: `${c.task_intent}: ${c.approach}`, score: c.score })),
        ...skills.map((k) => ({ text: `${k.name}: ${k.description}`, score: k.score })),
      ];
      last = { key, result };
      return result;
    };

    let result: Retrieved;
    if (input.method === 'agentic') {
      const plan = await runAgentic(
        input.query,
        {
          retrieve: async (qs, ws) => (await retrieve(qs, ws)).texts,
          expand: (hits) => expandQuery(db, scope, input.query, first.terms, hits),
        },
        this.deps.llm,
        this.deps.log,
        this.deps.agenticRounds ?? DEFAULT_MAX_ROUNDS,
      );
      result = await retrieve(plan.queries, plan.weights);
      metadata.queries = plan.queries;
      metadata.rounds = plan.rounds;
      if (plan.degraded) {
        metadata.degraded = true;
        metadata.degraded_reason ??= plan.reason;
      }
    } else {
      result = await retrieve([input.query], [1]);
    }

    if (input.enable_llm_rerank) {
      metadata.reranked = false;
      if (this.deps.reranker) {
        const r = await rerankHits(this.deps.reranker, input.query, result, this.deps.log);
        metadata.reranked = r.ok;
        result = { ...result, ...r.hits };
      }
    }
    const keep = <T extends { score?: number | undefined }>(xs: T[]) =>
      xs.filter((x) => x.score === undefined || x.score >= floor).slice(0, topK);

    const episodes = keep(result.episodes);
    const data: SearchData = {
      episodes: opts.allFacts ? episodes : bestFacts(episodes, topK),
      profiles: await profiles,
      agent_cases: keep(result.cases),
      agent_skills: keep(result.skills),
      // A pinned session's turns are unscored, every one of them returned (messages.ts).
      unprocessed_messages: pinned ? result.unprocessed : keep(result.unprocessed),
      messages: keep(result.messages),
      metadata,
    };
    metadata.method = route === input.method || input.method === 'agentic' ? input.method : route;
    metadata.took_ms = Date.now() - started;
    return data;
  }

  /**
   * The query with vocabulary bridges added (lexicon.ts) and the dates its relative
   * expressions name ("what did I do yesterday" asked on 27 November 2026: 26, November,
   * 2026, the words facts carry), its bm25norm taken against the query's own terms;
   * undefined when nothing bridges (or on the vector route). For a user (`user`), relative
   * dates are also resolved against the time of her newest memory when that is another day (a
   * conversation replayed from the past means its own yesterday), and a question about "my X"
   * also bridges to the names her facts give X (own-names.ts).
   */
  private async bridge(
    db: Db,
    scope: SearchScope,
    p: PreparedQuery,
    route: Route,
    user: { newest: () => Promise<number | undefined> } | undefined,
  ): Promise<PreparedQuery | undefined> {
    if (route === 'vector') return undefined;
    // A question that names its own date ("the weekend before 10 April 2023") is anchored already.
    const now = Date.now();
    const dated = mentionsDate(p.text) ? p.text : resolveRelativeDates(p.text, now);
    const [added, dates, names] = await Promise.all([
      expandTerms(db, scope, p.terms, p.text),
      dated === p.text ? [] : this.relativeDates(db, p.text, dated, now, user?.newest),
      user ? ownNames(db, scope, p.text) : [],
    ]);
    const terms = [...new Set([...p.terms, ...added, ...dates, ...names])];
    if (terms.length === p.terms.length) return undefined;
    return { ...p, terms, own: p.terms };
  }

  /**
   * The lexemes of the dates a question's relative expressions name: `dated` (the question
   * resolved against now) and, for a user whose newest memory is of another day, the question
   * resolved against that.
   */
  private async relativeDates(
    db: Db,
    text: string,
    dated: string,
    now: number,
    newest: (() => Promise<number | undefined>) | undefined,
  ): Promise<string[]> {
    const anchor = newest ? await newest() : undefined;
    const texts =
      anchor !== undefined && dayKey(anchor) !== dayKey(now)
        ? [dated, resolveRelativeDates(text, anchor)]
        : [dated];
    const lexemes = await Promise.all(texts.map((t) => questionLexemes(db, t)));
    return lexemes.flat();
  }

  /**
   * The spans of time a question asks about and nothing else ("What did I do last week?",
   * in-time.ts asksOnlyTime), counted from now and, when the owner's newest memory is of
   * another day, from that too (ownerNewest: a conversation replayed from the past means its
   * own last week). Its newest memory is read for such a question only.
   */
  private async askedRanges(text: string, newest: () => Promise<number | undefined>): Promise<TimeRange[]> {
    const now = Date.now();
    const fromNow = askedRange(text, now);
    if (!fromNow || !asksOnlyTime(text, fromNow.phrase)) return [];
    const anchor = await newest();
    const fromNewest =
      anchor !== undefined && dayKey(anchor) !== dayKey(now) ? askedRange(text, anchor) : undefined;
    return fromNewest && fromNewest.from !== fromNow.from ? [fromNow, fromNewest] : [fromNow];
  }

  private async profiles(db: Db, scope: SearchScope): Promise<SearchData['profiles']> {
    const rows = await db.query<ProfileRow>(
      `SELECT ${PROFILE_COLUMNS} FROM profiles
       WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND user_id = $4 AND deleted_at IS NULL`,
      [scope.tenantId, scope.appId, scope.projectId, scope.ownerId],
    );
    return rows.map((r) => ({ ...profileItem(r), score: null }));
  }
}
