import type { FilterNode } from '../../contract/filters.js';
import { compileFilter } from '../filters.js';
import { LIVE_MESSAGES } from '../memory/stored-message.js';

/**
 * Candidate sets: for each searchable kind, the FROM clause and the WHERE condition that
 * confine a query to the tenant, the scope (app, project), the owner, live rows and the
 * request's filters. Every route (keyword, vector, score-by-id) runs its ranking inside
 * this condition, so filters never cut an already-truncated list.
 */
export type StatKind = 'episode' | 'fact' | 'agent_case' | 'agent_skill' | 'topic' | 'message';

export interface SearchScope {
  tenantId: string;
  appId: string;
  projectId: string;
  /** user_id or agent_id, whichever the request named. */
  ownerId: string;
  filters: FilterNode | null | undefined;
}

export interface Target {
  kind: StatKind;
  /** Alias of the ranked table in `from`. */
  alias: string;
  from: string;
  where: string;
  /**
   * $1 tenant, $2 app, $3 project (the BM25 statistics scope), then the target's own
   * values (memories: $4 owner, then filter values). Copy before appending.
   */
  params: unknown[];
  /** True when request filters narrow the owner's documents (the vector route then scans exactly). */
  filtered?: boolean;
  /**
   * True when the target is exactly the owner's live documents of its kind, so keyword
   * candidates can be read from search_postings (migration 0014) instead of the rows.
   */
  posted?: boolean;
  /** SQL of a ranked row's parent id, returned beside each hit (facts: their episode). */
  parent?: string;
}

/** Positional parameters of one statement, starting with a target's. */
export class Params {
  readonly values: unknown[];
  constructor(values: readonly unknown[]) {
    this.values = [...values];
  }
  /** Appends a value and returns its placeholder. */
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

export const bind = (t: Target) => new Params(t.params);

const base = (s: SearchScope): unknown[] => [s.tenantId, s.appId, s.projectId, s.ownerId];
const live = (a: string) =>
  `${a}.tenant_id = $1 AND ${a}.app_id = $2 AND ${a}.project_id = $3 AND ${a}.deleted_at IS NULL`;

const EPISODE_FILTER_COLUMNS = {
  session_id: 'e.session_id',
  timestamp: 'e.ts',
  sender_id: { array: 'e.sender_ids' },
  tags: { array: 'e.tags' },
} as const;

/** Episodes visible to a user (owner_ids holds every human sender of the episode). */
export function episodeTarget(s: SearchScope): Target {
  const params = base(s);
  const cond = compileFilter(s.filters, EPISODE_FILTER_COLUMNS, params);
  return {
    kind: 'episode',
    filtered: cond !== 'TRUE',
    posted: cond === 'TRUE',
    alias: 'e',
    from: 'episodes e',
    where: `${live('e')} AND e.owner_ids @> ARRAY[$4]::text[] AND ${cond}`,
    params,
  };
}

/**
 * Atomic facts of the episodes above; filters apply to the parent episode. A fact is live
 * exactly while its episode is: every path that deletes an episode deletes its facts in the
 * same transaction (memory/delete.ts; migration 0022 brought older rows in line), so an
 * unfiltered read needs the facts alone, and a filtered one joins the episode only for the
 * columns its filters read.
 */
export function factTarget(s: SearchScope): Target {
  const params = base(s);
  const cond = compileFilter(s.filters, EPISODE_FILTER_COLUMNS, params);
  const filtered = cond !== 'TRUE';
  return {
    kind: 'fact',
    alias: 'f',
    filtered,
    posted: !filtered,
    parent: 'f.episode_id',
    from: filtered
      ? 'atomic_facts f JOIN episodes e ON e.tenant_id = f.tenant_id AND e.id = f.episode_id'
      : 'atomic_facts f',
    where: `${live('f')} AND f.owner_ids @> ARRAY[$4]::text[] AND ${cond}`,
    params,
  };
}

/** An agent's cases; sender_id matches the agent, session_id and timestamp the case. */
export function caseTarget(s: SearchScope): Target {
  const params = base(s);
  const cond = compileFilter(
    s.filters,
    { session_id: 'c.session_id', timestamp: 'c.ts', sender_id: 'c.agent_id' },
    params,
  );
  return {
    kind: 'agent_case',
    alias: 'c',
    filtered: cond !== 'TRUE',
    posted: cond === 'TRUE',
    from: 'agent_cases c',
    where: `${live('c')} AND c.agent_id = $4 AND ${cond}`,
    params,
  };
}

/** An agent's skills. Skills span sessions and have no event time: filters do not narrow them (as in get). */
export function skillTarget(s: SearchScope): Target {
  return {
    kind: 'agent_skill',
    alias: 'k',
    posted: true,
    from: 'agent_skills k',
    where: `${live('k')} AND k.agent_id = $4`,
    params: base(s),
  };
}

/** Statistics scope of knowledge-base topics: ('kb', kb id) in place of (app, project). */
export const KB_STATS_APP = 'kb';

export interface TopicScope {
  tenantId: string;
  kbId: string;
  /** Only topics of documents in this category. */
  categoryId?: string | null | undefined;
  /** Only topics carrying every one of these tags. */
  tagIds?: readonly string[];
}

/**
 * The topics of one knowledge base (not the bodiless document roots), narrowed by category
 * and tags. Parameters follow the memory targets: $1 tenant, $2 'kb' and $3 the knowledge
 * base (the statistics scope), $4 the knowledge base again as the owner.
 */
export function topicTarget(s: TopicScope): Target {
  const params: unknown[] = [s.tenantId, KB_STATS_APP, s.kbId, s.kbId];
  let where = `tp.tenant_id = $1 AND $2::text = '${KB_STATS_APP}' AND tp.kb_id = $3 AND tp.kb_id = $4 AND tp.type <> 'root'`;
  if (s.categoryId) {
    params.push(s.categoryId);
    where += ` AND tp.doc_id IN (SELECT d.id FROM kb_documents d WHERE d.tenant_id = $1 AND d.kb_id = $3 AND d.category_id = $${params.length})`;
  }
  if (s.tagIds?.length) {
    params.push(JSON.stringify(s.tagIds));
    where += ` AND tp.tag_ids @> ARRAY(SELECT jsonb_array_elements_text($${params.length}::jsonb))`;
  }
  const filtered = Boolean(s.categoryId || s.tagIds?.length);
  return { kind: 'topic', alias: 'tp', from: 'kb_topics tp', where, params, filtered };
}

export const MESSAGE_FILTER_COLUMNS = {
  session_id: 'm.session_id',
  timestamp: 'm.ts',
  sender_id: 'm.sender_id',
} as const;

/** The owner took part in the session of message `a` (sent a live message in it). */
export const tookPart = (a: string) => `EXISTS (SELECT 1 FROM ${LIVE_MESSAGES} o
  WHERE o.tenant_id = $1 AND o.app_id = $2 AND o.project_id = $3 AND o.sender_id = $4 AND o.session_id = ${a}.session_id)`;

/**
 * The scope's messages not yet extracted of the sessions the owner took part in (any
 * sender), as `m`: read from the open messages (messages_open), each checked against the
 * owner's messages by index, so the cost follows the open buffers, not the owner's history.
 * OFFSET 0 keeps the planner from trading this for a match over every stored turn.
 */
export const OPEN_MESSAGES = `(SELECT * FROM ${LIVE_MESSAGES} x
  WHERE x.tenant_id = $1 AND x.app_id = $2 AND x.project_id = $3 AND x.state <> 'extracted' AND ${tookPart('x')}
  OFFSET 0) m`;

/**
 * Message turns visible to the owner, any sender, filters applied to the message
 * (session_id, sender_id, timestamp):
 * - `extracted`: turns already extracted, owned like the episode made from them
 *   (owner_ids, migration 0015): counted and posted per owner, so the keyword route reads
 *   the owner's postings, and the vector route plans like the other memory kinds;
 * - `unextracted`: turns of the owner's sessions not yet extracted (OPEN_MESSAGES), scored
 *   exactly (marked `filtered`), with the BM25 statistics of the owner's extracted turns.
 */
export function messageTarget(s: SearchScope, which: 'extracted' | 'unextracted'): Target {
  const params = base(s);
  const cond = compileFilter(s.filters, MESSAGE_FILTER_COLUMNS, params);
  if (which === 'unextracted')
    return {
      kind: 'message',
      alias: 'm',
      filtered: true,
      from: OPEN_MESSAGES,
      where: `${live('m')} AND ${cond}`,
      params,
    };
  return {
    kind: 'message',
    alias: 'm',
    filtered: cond !== 'TRUE',
    posted: cond === 'TRUE',
    from: `${LIVE_MESSAGES} m`,
    where: `${live('m')} AND m.state = 'extracted' AND m.owner_ids @> ARRAY[$4]::text[] AND ${cond}`,
    params,
  };
}

/** The same target narrowed to the given ids of its ranked table. */
export function restrictIds(t: Target, ids: readonly string[]): Target {
  const params = [...t.params, JSON.stringify(ids)];
  return {
    ...t,
    where: `${t.where} AND ${t.alias}.id IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`,
    params,
  };
}
