import type { FilterNode } from '../../contract/filters.js';
import { pinnedSession } from '../../contract/filters.js';
import type { SearchData } from '../../contract/search.js';
import type { Sql } from '../../core/db.js';
import { isoRequired } from '../../core/time.js';
import { compileFilter } from '../filters.js';
import { LIVE_MESSAGES } from '../memory/stored-message.js';
import { orQuery } from './keyword.js';
import type { SearchScope } from './scope.js';

/**
 * Messages not yet extracted (any state but `extracted`, including those an async add
 * has only queued), so what was just said is findable at once. Only sessions the owner
 * took part in (sent at least one message) are searched, and the request's filters apply
 * (session_id, sender_id, timestamp on the message).
 *
 * - When the filters pin one session (`session_id` as a top-level equality) every
 *   unprocessed message of that session is returned, oldest first, up to 500, unscored:
 *   the caller is asking what is still in flight there (the OpenAPI behaviour).
 * - Otherwise engram also returns the unprocessed messages of the owner's sessions that
 *   match the query (any query lexeme), best first, at most `limit`, each with `score` =
 *   ts_rank normalised to 0–1 (rank / (rank + 1)).
 */
export type UnprocessedMessage = SearchData['unprocessed_messages'][number];

export const PINNED_MAX = 500;

interface MessageRow {
  id: string;
  app_id: string;
  project_id: string;
  session_id: string;
  sender_id: string;
  sender_name: string | null;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  content_items: Record<string, unknown>[] | null;
  tool_calls: UnprocessedMessage['tool_calls'];
  tool_call_id: string | null;
  ts: string | number;
  score?: number;
  [k: string]: unknown;
}

export async function unprocessedMessages(
  q: Sql,
  scope: SearchScope,
  terms: readonly string[],
  filters: FilterNode | null | undefined,
  limit: number,
): Promise<UnprocessedMessage[]> {
  const pinned = pinnedSession(filters) !== undefined;
  if (!pinned && !terms.length) return [];
  const params: unknown[] = [scope.tenantId, scope.appId, scope.projectId, scope.ownerId];
  const cond = compileFilter(
    filters,
    { session_id: 'm.session_id', timestamp: 'm.ts', sender_id: 'm.sender_id' },
    params,
  );
  let score = '';
  let match = '';
  let order = 'm.ts, m.seq';
  let lim = PINNED_MAX;
  if (!pinned) {
    params.push(orQuery(terms));
    const tsq = `$${params.length}::tsquery`;
    score = `, ts_rank(m.search, ${tsq}, 32)::float8 AS score`;
    match = `AND m.search @@ ${tsq}`;
    order = 'score DESC, m.ts DESC, m.seq DESC';
    lim = limit;
  }
  params.push(lim);
  const rows = await q.query<MessageRow>(
    `SELECT m.id, m.app_id, m.project_id, m.session_id, m.sender_id, m.sender_name, m.role, m.content,
            m.content_items, m.tool_calls, m.tool_call_id, m.ts${score}
     FROM ${LIVE_MESSAGES} m
     WHERE m.tenant_id = $1 AND m.app_id = $2 AND m.project_id = $3
       AND m.state <> 'extracted' ${match}
       AND m.session_id IN (SELECT o.session_id FROM ${LIVE_MESSAGES} o
                            WHERE o.tenant_id = $1 AND o.app_id = $2 AND o.project_id = $3
                              AND o.sender_id = $4)
       AND ${cond}
     ORDER BY ${order} LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => {
    const item: UnprocessedMessage = {
      id: r.id,
      app_id: r.app_id,
      project_id: r.project_id,
      session_id: r.session_id,
      sender_id: r.sender_id,
      sender_name: r.sender_name,
      role: r.role,
      content: r.content_items ?? r.content,
      timestamp: isoRequired(Number(r.ts)),
      tool_calls: r.tool_calls,
      tool_call_id: r.tool_call_id,
    };
    if (r.score !== undefined) item.score = Math.round(Number(r.score) * 1e6) / 1e6;
    return item;
  });
}
