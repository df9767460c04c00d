import type { MessageInput } from '../../contract/common.js';
import { messageText } from '../../contract/common.js';
import type { Row, Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { SegmentMessage, ToolCall } from '../../core/ports.js';
import type { Scope } from './deps.js';

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

/** Inserts messages in request order (state `queued`, owned by taskId); returns their ids. */
export async function insertMessages(
  tx: Sql,
  tenantId: string,
  scope: Scope,
  sessionId: string,
  messages: readonly MessageInput[],
  taskId: string,
): Promise<string[]> {
  const ids = messages.map(() => newId());
  const CHUNK = 100;
  for (let start = 0; start < messages.length; start += CHUNK) {
    const params: unknown[] = [tenantId, scope.appId, scope.projectId, sessionId, taskId];
    const values: string[] = [];
    messages.slice(start, start + CHUNK).forEach((m, j) => {
      const b = params.length;
      params.push(
        ids[start + j],
        m.sender_id,
        m.sender_name ?? null,
        m.role,
        messageText(m.content),
        typeof m.content === 'string' ? null : JSON.stringify(m.content),
        m.tool_calls?.length ? JSON.stringify(m.tool_calls) : null,
        m.tool_call_id ?? null,
        m.timestamp,
      );
      values.push(
        `($1, $${b + 1}, $2, $3, $4, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, $${b + 7}::jsonb, $${b + 8}, $${b + 9}::bigint, 'queued', $5)`,
      );
    });
    await tx.query(
      `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, sender_name, role, content,
                             content_items, tool_calls, tool_call_id, ts, state, task_id)
       VALUES ${values.join(', ')}`,
      params,
    );
  }
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
    `SELECT * FROM messages WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND session_id = $4
       AND state = $5 AND deleted_at IS NULL ${ORDER}`,
    [tenantId, scope.appId, scope.projectId, sessionId, state],
  );
}

export async function segmentMessages(q: Sql, tenantId: string, segmentId: string): Promise<MessageRow[]> {
  return q.query<MessageRow>(
    `SELECT * FROM messages WHERE tenant_id = $1 AND segment_id = $2 AND deleted_at IS NULL ${ORDER}`,
    [tenantId, segmentId],
  );
}
