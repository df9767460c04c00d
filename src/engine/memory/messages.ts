import type { MessageInput } from '../../contract/common.js';
import { messageText } from '../../contract/common.js';
import { jsonParam, type Row, type Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { SegmentMessage, ToolCall } from '../../core/ports.js';
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

/** The columns of `messages m` that extraction reads (toSegmentMessage). */
export const SEGMENT_COLUMNS = `m.id, m.session_id, m.sender_id, m.sender_name, m.role, m.content, m.tool_calls,
  m.tool_call_id, m.ts`;
export type SegmentRow = Pick<
  MessageRow,
  | 'id'
  | 'session_id'
  | 'sender_id'
  | 'sender_name'
  | 'role'
  | 'content'
  | 'tool_calls'
  | 'tool_call_id'
  | 'ts'
>;

export function toSegmentMessage(r: SegmentRow): SegmentMessage {
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

/** A message of a segment as extraction reads it: its state, and whether it has no embedding yet. */
export interface PendingMessage extends SegmentRow, Row {
  state: string;
  unembedded: boolean;
}

export async function segmentMessages(
  q: Sql,
  tenantId: string,
  segmentId: string,
): Promise<PendingMessage[]> {
  return q.query<PendingMessage>(
    `SELECT ${SEGMENT_COLUMNS}, m.state, m.embedding IS NULL AS unembedded FROM ${LIVE_MESSAGES} m
     WHERE tenant_id = $1 AND segment_id = $2 ${ORDER}`,
    [tenantId, segmentId],
  );
}

const EMBED_BATCH = 64;

/**
 * Vectors for the messages given that have none yet and some text, asked of the embedder
 * EMBED_BATCH at a time, so a turn is found by meaning before and after extraction. An
 * embedder failure is logged, not thrown: the messages left without a vector stay findable
 * by keyword, and the next job of the session (or `engram reindex`) tries again.
 */
export async function embedMessages(
  deps: Pick<MemoryDeps, 'embedder' | 'log'>,
  messages: readonly { id: string; content: string; unembedded: boolean }[],
): Promise<Map<string, number[]>> {
  const todo = messages.filter((m) => m.unembedded && m.content !== '');
  const out = new Map<string, number[]>();
  for (let i = 0; i < todo.length; i += EMBED_BATCH) {
    const batch = todo.slice(i, i + EMBED_BATCH);
    try {
      const vectors = await deps.embedder.embed(batch.map((m) => m.content));
      for (const [k, m] of batch.entries()) out.set(m.id, vectors[k]!);
    } catch (err) {
      deps.log.warn('message embedding failed; messages stay keyword-searchable', { error: err });
      break;
    }
  }
  return out;
}
