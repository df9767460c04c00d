import type { MessageInput } from '../../contract/common.js';
import { messageText } from '../../contract/common.js';
import { jsonParam, type Row, type Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { SegmentMessage, ToolCall } from '../../core/ports.js';
import { vectorText } from '../search/vector.js';
import type { MemoryDeps, Scope } from './deps.js';
import { LIVE_MESSAGES } from './stored-message.js';

/** Stored messages: insert, read back as extraction sees them. */
export interface MessageRow extends Row {
  id: string;
  session_id: string;
  sender_id: string;
  sender_name: string | null;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  content_items: unknown;
  tool_calls: ToolCall[] | null;
  tool_call_id: string | null;
  ts: string | number;
  state: string;
  segment_id: string | null;
}

/**
 * The statement inserting messages in request order (state `queued`, owned by taskId), for
 * any number of messages: one jsonb parameter read by jsonb_to_recordset, so the statement
 * text is the same whatever the count. Returns it with the new messages' ids.
 */
export function messagesInsert(
  tenantId: string,
  scope: Scope,
  sessionId: string,
  messages: readonly MessageInput[],
  taskId: string,
): { sql: string; params: unknown[]; ids: string[] } {
  const ids = messages.map(() => newId());
  const rows = messages.map((m, i) => ({
    i,
    id: ids[i],
    sender_id: m.sender_id,
    sender_name: m.sender_name ?? null,
    role: m.role,
    content: messageText(m.content),
    content_items: typeof m.content === 'string' ? null : m.content,
    tool_calls: m.tool_calls?.length ? m.tool_calls : null,
    tool_call_id: m.tool_call_id ?? null,
    ts: m.timestamp,
  }));
  return {
    sql: `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, sender_name, role, content,
                                content_items, tool_calls, tool_call_id, ts, state, task_id)
          SELECT $1, x.id, $2, $3, $4, x.sender_id, x.sender_name, x.role, x.content,
                 x.content_items, x.tool_calls, x.tool_call_id, x.ts, 'queued', $5
          FROM jsonb_to_recordset($6::jsonb) AS x(i int, id text, sender_id text, sender_name text, role text,
               content text, content_items jsonb, tool_calls jsonb, tool_call_id text, ts bigint)
          ORDER BY x.i`,
    params: [tenantId, scope.appId, scope.projectId, sessionId, taskId, jsonParam(rows)],
    ids,
  };
}

/** Inserts messages (messagesInsert) as one statement of its own; returns their ids. */
export async function insertMessages(
  q: Sql,
  tenantId: string,
  scope: Scope,
  sessionId: string,
  messages: readonly MessageInput[],
  taskId: string,
): Promise<string[]> {
  const { sql, params, ids } = messagesInsert(tenantId, scope, sessionId, messages, taskId);
  await q.query(sql, params);
  return ids;
}

export function toSegmentMessage(r: MessageRow): SegmentMessage {
  return {
    id: r.id,
    session_id: r.session_id,
    sender_id: r.sender_id,
    sender_name: r.sender_name,
    role: r.role,
    content: r.content,
    timestamp: Number(r.ts),
    tool_calls: r.tool_calls,
    tool_call_id: r.tool_call_id,
  };
}

const ORDER = 'ORDER BY ts, seq';

export async function sessionMessages(
  q: Sql,
  tenantId: string,
  scope: Scope,
  sessionId: string,
  state: string,
): Promise<MessageRow[]> {
  return q.query<MessageRow>(
    `SELECT * FROM ${LIVE_MESSAGES} m WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND session_id = $4
       AND state = $5 ${ORDER}`,
    [tenantId, scope.appId, scope.projectId, sessionId, state],
  );
}

export async function segmentMessages(q: Sql, tenantId: string, segmentId: string): Promise<MessageRow[]> {
  return q.query<MessageRow>(
    `SELECT * FROM ${LIVE_MESSAGES} m WHERE tenant_id = $1 AND segment_id = $2 ${ORDER}`,
    [tenantId, segmentId],
  );
}

const EMBED_BATCH = 64;

/**
 * Embeds the session's open (not yet extracted) live messages that have no vector yet, in
 * batches, so a turn is found by meaning before and after extraction. An embedder failure
 * is logged, not thrown: the messages stay findable by keyword, and the next job of the
 * session (or `engram reindex`) tries again.
 */
export async function embedSessionMessages(
  deps: Pick<MemoryDeps, 'db' | 'embedder' | 'log'>,
  tenantId: string,
  scope: Scope,
  sessionId: string,
): Promise<void> {
  for (;;) {
    const rows = await deps.db.query<{ id: string; content: string }>(
      `SELECT id, content FROM ${LIVE_MESSAGES} m
       WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND session_id = $4
         AND state <> 'extracted' AND embedding IS NULL AND content <> ''
       ORDER BY ts, seq LIMIT ${EMBED_BATCH}`,
      [tenantId, scope.appId, scope.projectId, sessionId],
    );
    if (!rows.length) return;
    let vectors: number[][];
    try {
      vectors = await deps.embedder.embed(rows.map((r) => r.content));
    } catch (err) {
      deps.log.warn('message embedding failed; messages stay keyword-searchable', { error: err });
      return;
    }
    await deps.db.query(
      `UPDATE messages m SET embedding = v.embedding::vector
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, embedding text)
       WHERE m.tenant_id = $1 AND m.id = v.id`,
      [tenantId, JSON.stringify(rows.map((r, i) => ({ id: r.id, embedding: vectorText(vectors[i]!) })))],
    );
    if (rows.length < EMBED_BATCH) return;
  }
}
