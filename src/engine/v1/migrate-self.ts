import type { AddInput } from '../../contract/memory-write.js';
import type { Db } from '../../core/db.js';
import { EngramError } from '../../core/errors.js';
import type { MemoryService } from '../memory/service.js';
import { LIVE_MESSAGES, MESSAGE_COLUMNS, type MessageRow } from '../memory/stored-message.js';
import { V1_SELF_PREFIX } from './self-hosted.js';

/**
 * The self-hosted v1 side of `engram migrate v1-to-v2`: messages added through
 * `/api/v1/memory/add` (kept in the reserved partitions `v1:self:<app_id>`) are copied
 * into v2 under the partition the client named (`<app_id>` / `<project_id>`) and the
 * same session, with their sender, role, content items, tool calls and timestamps. Each
 * batch and its rows in `v1_self_migrated` commit in one transaction, so a killed run
 * resumes without copying anything twice.
 */
export async function selfHostedCounts(db: Db, tenant: string): Promise<{ total: number; migrated: number }> {
  const [row] = await db.query<{ total: string | number; migrated: string | number }>(
    `SELECT (SELECT count(*) FROM ${LIVE_MESSAGES} m WHERE tenant_id = $1 AND app_id LIKE $2) AS total,
            (SELECT count(*) FROM v1_self_migrated WHERE tenant_id = $1) AS migrated`,
    [tenant, `${V1_SELF_PREFIX}%`],
  );
  return { total: Number(row?.total ?? 0), migrated: Number(row?.migrated ?? 0) };
}

/** Copies the next batch (one partition and session, oldest first); answers how many it copied. */
export async function migrateSelfHostedBatch(
  db: Db,
  memory: MemoryService,
  tenant: string,
  size: number,
): Promise<number> {
  const rows = await db.query<MessageRow>(
    `WITH todo AS (
       SELECT m.* FROM ${LIVE_MESSAGES} m
        WHERE m.tenant_id = $1 AND m.app_id LIKE $2
          AND NOT EXISTS (SELECT 1 FROM v1_self_migrated x WHERE x.tenant_id = m.tenant_id AND x.message_id = m.id)
     ), first AS (SELECT app_id, project_id, session_id FROM todo ORDER BY seq LIMIT 1)
     SELECT ${MESSAGE_COLUMNS} FROM todo m JOIN first f USING (app_id, project_id, session_id)
     ORDER BY m.seq LIMIT $3`,
    [tenant, `${V1_SELF_PREFIX}%`, Math.max(1, Math.min(500, size))],
  );
  const first = rows[0];
  if (!first) return 0;
  const messages: AddInput['messages'] = rows.map((r) => ({
    sender_id: r.sender_id,
    sender_name: r.sender_name,
    role: r.role,
    content: (r.content_items as AddInput['messages'][number]['content'] | null) ?? r.content,
    timestamp: Number(r.ts),
    tool_calls: r.tool_calls,
    tool_call_id: r.tool_call_id,
  }));
  await memory.add(
    { tenantId: tenant },
    {
      app_id: first.app_id.slice(V1_SELF_PREFIX.length),
      project_id: first.project_id,
      session_id: first.session_id,
      async_mode: true,
      messages,
    },
    {
      inTx: async (tx, ids) => {
        const pairs = rows.map((r, i) => ({ message_id: r.id, migrated_id: ids[i] }));
        const marked = await tx.query(
          `INSERT INTO v1_self_migrated (tenant_id, message_id, migrated_id)
           SELECT $1, p.message_id, p.migrated_id FROM jsonb_to_recordset($2::jsonb) AS p(message_id text, migrated_id text)
           ON CONFLICT (tenant_id, message_id) DO NOTHING RETURNING message_id`,
          [tenant, JSON.stringify(pairs)],
        );
        // Another migration of this tenant copied some of them first: copy nothing here.
        if (marked.length !== rows.length)
          throw new EngramError('Conflict', 'another migration of this tenant is running; try again');
      },
    },
  );
  return rows.length;
}
