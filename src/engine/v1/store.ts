import type { Row, Sql } from '../../core/db.js';
import { iso, isoRequired } from '../../core/time.js';
import { LIVE_MESSAGES } from '../memory/stored-message.js';

/**
 * The reserved partition the memory engine keeps v1 memories under. Its app_id holds a
 * colon, which the v2 scope pattern rejects, so no v2 call can read or change it.
 */
export const V1_SCOPE = { app_id: 'v1:cloud', project_id: 'default' } as const;

export interface V1MessageRow extends Row {
  message_id: string;
  seq: string | number;
  group_id: string;
  sender: string;
  sender_name: string;
  role: 'user' | 'assistant';
  content: string;
  refer_list: string[];
  create_time: string | number;
  engine_id: string;
  migrated_id: string | null;
}

/**
 * The v1 Cloud messages still live: those whose engine message is not deleted (a delete by
 * owner or group soft-deletes the engine's messages; `engram purge` then removes both).
 * Every read of v1 messages selects from this, except findMessage: a message id stays
 * taken once used, so a resend of a deleted message changes nothing.
 */
export const LIVE_V1_MESSAGES = `(SELECT v.* FROM v1_messages v
  JOIN ${LIVE_MESSAGES} e ON e.tenant_id = v.tenant_id AND e.id = v.engine_id)`;

/** The message stored under messageId, deleted or not (add's idempotency). */
export async function findMessage(
  q: Sql,
  tenantId: string,
  messageId: string,
): Promise<V1MessageRow | undefined> {
  const rows = await q.query<V1MessageRow>(
    'SELECT * FROM v1_messages WHERE tenant_id = $1 AND message_id = $2',
    [tenantId, messageId],
  );
  return rows[0];
}

export async function messagesByEngineIds(
  q: Sql,
  tenantId: string,
  engineIds: string[],
): Promise<Map<string, V1MessageRow>> {
  if (!engineIds.length) return new Map();
  const rows = await q.query<V1MessageRow>(
    `SELECT * FROM ${LIVE_V1_MESSAGES} m WHERE tenant_id = $1
       AND engine_id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [tenantId, JSON.stringify(engineIds)],
  );
  return new Map(rows.map((r) => [r.engine_id, r]));
}

export interface SenderRow extends Row {
  sender_id: string;
  name: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface GroupRow extends SenderRow {
  group_id: string;
  description: string;
}

export const senderRecord = (r: SenderRow) => ({
  sender_id: r.sender_id,
  name: r.name,
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});

export const groupRecord = (r: GroupRow) => ({
  group_id: r.group_id,
  name: r.name,
  description: r.description,
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});

export const rawMessage = (r: V1MessageRow, score?: number) => ({
  message_id: r.message_id,
  group_id: r.group_id,
  sender: r.sender,
  sender_name: r.sender_name,
  role: r.role,
  content: r.content,
  create_time: iso(Number(r.create_time)) ?? '',
  ...(score === undefined ? {} : { score }),
});
