import type { MessagesData, OwnersData, OwnersQuery } from '../../contract/inspect.js';
import type { Db } from '../../core/db.js';
import type { Ctx } from './deps.js';
import { listOwners } from './owners.js';
import { LIVE_MESSAGES, MESSAGE_COLUMNS, type MessageRow, messageItem } from './stored-message.js';

/** The inspector's reads: owners of a kind, and messages by id. One tenant, live rows only. */
export async function inspectOwners(db: Db, ctx: Ctx, q: OwnersQuery): Promise<OwnersData> {
  const items = await listOwners(db, ctx, q.kind, (q.page - 1) * q.page_size, q.page_size);
  return { items, page: q.page, page_size: q.page_size };
}

export async function messagesByIds(db: Db, ctx: Ctx, ids: readonly string[]): Promise<MessagesData> {
  const rows = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM ${LIVE_MESSAGES} m
     WHERE m.tenant_id = $1 AND m.id IN (SELECT jsonb_array_elements_text($2::jsonb))
     ORDER BY m.ts, m.seq`,
    [ctx.tenantId, JSON.stringify(ids)],
  );
  return { items: rows.map(messageItem) };
}
