import { pinnedSession } from '../../contract/filters.js';
import type { SearchData } from '../../contract/search.js';
import type { TimeRange } from '../../core/date-range.js';
import type { Sql } from '../../core/db.js';
import { compileFilter } from '../filters.js';
import { LIVE_MESSAGES, MESSAGE_COLUMNS, type MessageRow, messageItem } from '../memory/stored-message.js';
import { mergeQueries, type PreparedQuery, type RankDeps, type Route, rankEach, scoreMap } from './hybrid.js';
import { turnsInTime } from './in-time.js';
import { MESSAGE_FILTER_COLUMNS, messageTarget, OPEN_MESSAGES, type SearchScope, tookPart } from './scope.js';
import { lower, round } from './score.js';

/**
 * Message turns as search hits, every sender's, and the request's filters apply to the
 * message (session_id, sender_id, timestamp).
 *
 * - `unprocessed_messages`: turns not yet extracted (any state but `extracted`, including
 *   those an async add has only queued) of the sessions the owner took part in, so what was just said is findable at once. When
 *   the filters pin one session (`session_id` as a top-level equality) every unprocessed
 *   message of that session is returned, oldest first, up to 500, unscored (the OpenAPI
 *   behaviour). Otherwise they are ranked like every other kind (keyword, vector or
 *   hybrid over the message's own `search` tsvector and embedding): best first, at most
 *   `limit`, each with its route score.
 * - `messages` (additive): turns already extracted, owned like the episode made from them,
 *   ranked the same way. Extraction summarises; the raw turn stays retrievable beside the
 *   facts made from it.
 */
export type MessageHit = SearchData['unprocessed_messages'][number];
export type ScoredMessage = SearchData['messages'][number];

export const PINNED_MAX = 500;

export interface MessageQuery {
  route: Route;
  queries: PreparedQuery[];
  weights?: number[];
  pool: number;
  radius?: number | null | undefined;
  /** The spans of time a question asks about and nothing else (in-time.ts). */
  when?: readonly TimeRange[] | undefined;
}

/**
 * The best `limit` turns of the owner's sessions, extracted or not, with their route scores,
 * and after them every candidate a later step could lift into that many by lowering the
 * ones above it: with `spare` (the lowest share of its score such a step leaves a turn,
 * service.ts), those scoring at least `spare` times the `limit`-th score. The caller cuts
 * to `limit` after its steps.
 */
export async function rankMessages(
  d: RankDeps,
  scope: SearchScope,
  which: 'extracted' | 'unextracted',
  q: MessageQuery,
  limit: number,
  floor: number,
  spare: number,
): Promise<ScoredMessage[]> {
  if (which === 'unextracted' && !(await anyOpen(d.db, scope))) return [];
  const target = messageTarget(scope, which);
  const maps = (await rankEach(d, () => target, q.route, q.queries, q.pool, q.radius)).map(scoreMap);
  const merged = mergeQueries(maps, q.weights);
  // A question about a span of time alone: the turns of the span go first (in-time.ts).
  if (q.when?.length) await turnsInTime(d, target, { ...q, when: q.when }, merged);
  const sorted = [...merged.entries()]
    .filter(([, s]) => s >= floor)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const last = sorted[limit - 1]?.[1];
  // A negative score is lowered by dividing it (people.ts), so its bar divides too.
  const bar = last === undefined ? Number.POSITIVE_INFINITY : lower(last, spare);
  const ranked = sorted.filter(([, s], i) => i < limit || s >= bar);
  if (!ranked.length) return [];
  const rows = await d.db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM ${LIVE_MESSAGES} m
     WHERE m.tenant_id = $1 AND m.id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [scope.tenantId, JSON.stringify(ranked.map(([id]) => id))],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ranked.flatMap(([id, s]) => {
    const r = byId.get(id);
    return r ? [{ ...messageItem(r), score: round(s) }] : [];
  });
}

/**
 * True when a session the owner took part in holds a turn not yet extracted. Most searches
 * find none (every turn extracted): this one indexed read (messages_open) then replaces
 * planning and running the rank statement over no rows (on the embedded store, where
 * statements run one after another, ~3-4 ms of a search's CPU).
 */
async function anyOpen(q: Sql, scope: SearchScope): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM ${OPEN_MESSAGES} LIMIT 1`, [
    scope.tenantId,
    scope.appId,
    scope.projectId,
    scope.ownerId,
  ]);
  return rows.length > 0;
}

/** Every unprocessed message of the one session the filters pin, oldest first, unscored. */
export async function pinnedUnprocessed(q: Sql, scope: SearchScope): Promise<MessageHit[] | undefined> {
  if (pinnedSession(scope.filters) === undefined) return undefined;
  const params: unknown[] = [scope.tenantId, scope.appId, scope.projectId, scope.ownerId];
  const cond = compileFilter(scope.filters, MESSAGE_FILTER_COLUMNS, params);
  params.push(PINNED_MAX);
  const rows = await q.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM ${LIVE_MESSAGES} m
     WHERE m.tenant_id = $1 AND m.app_id = $2 AND m.project_id = $3
       AND m.state <> 'extracted' AND ${tookPart('m')} AND ${cond}
     ORDER BY m.ts, m.seq LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => messageItem(r));
}
