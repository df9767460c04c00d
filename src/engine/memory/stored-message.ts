import type { z } from 'zod';
import type { UnprocessedMessage } from '../../contract/search.js';
import { isoRequired } from '../../core/time.js';

/**
 * A stored message as the API answers it (the inspector's provenance reads): the columns to
 * select from `messages m` and the row-to-item mapping.
 */
/**
 * The messages every read selects from: live rows only. A message soft-deleted with its
 * owner's or its session's memory is in no read, search or extraction from then on. Only
 * writes and `engram purge` name the table itself; test/hardening/deleted-messages.test.ts
 * holds every other statement in src/ to this.
 */
export const LIVE_MESSAGES = '(SELECT * FROM messages WHERE deleted_at IS NULL)';

export type MessageItem = Omit<z.infer<typeof UnprocessedMessage>, 'score'>;

export const MESSAGE_COLUMNS = `m.id, m.app_id, m.project_id, m.session_id, m.sender_id, m.sender_name, m.role,
  m.content, m.content_items, m.tool_calls, m.tool_call_id, m.ts`;

export interface MessageRow {
  id: string;
  app_id: string;
  project_id: string;
  session_id: string;
  sender_id: string;
  sender_name: string | null;
  role: MessageItem['role'];
  content: string;
  content_items: Record<string, unknown>[] | null;
  tool_calls: MessageItem['tool_calls'];
  tool_call_id: string | null;
  ts: string | number;
  [k: string]: unknown;
}

export function messageItem(r: MessageRow): MessageItem {
  return {
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
}
