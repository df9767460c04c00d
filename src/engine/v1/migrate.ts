import type { Db, Row } from '../../core/db.js';
import { EngramError } from '../../core/errors.js';
import type { MemoryService } from '../memory/service.js';
import { migrateSelfHostedBatch, selfHostedCounts } from './migrate-self.js';
import { LIVE_V1_MESSAGES, type V1MessageRow } from './store.js';

export interface V1MigrationCounts {
  tenant: string;
  /** v1 messages of the tenant. */
  total: number;
  /** Of those, already copied into v2 (by this or an earlier run). */
  migrated: number;
  /** Copied by the batch that returned these counts. */
  batch: number;
}

type Copied = 'message_id' | 'group_id' | 'sender' | 'sender_name' | 'role' | 'content' | 'create_time';

/** v2 partition migrated v1 memories land in (where v2 clients read by default). */
const V2_SCOPE = { app_id: 'default', project_id: 'default' } as const;

/** v1 Cloud messages and self-hosted v1 messages together. */
export async function v1MigrationCounts(db: Db, tenant: string, batch = 0): Promise<V1MigrationCounts> {
  const [row] = await db.query<{ total: string | number; migrated: string | number }>(
    `SELECT count(*) AS total, count(migrated_id) AS migrated FROM ${LIVE_V1_MESSAGES} m WHERE tenant_id = $1`,
    [tenant],
  );
  const self = await selfHostedCounts(db, tenant);
  return {
    tenant,
    total: Number(row?.total ?? 0) + self.total,
    migrated: Number(row?.migrated ?? 0) + self.migrated,
    batch,
  };
}

/**
 * Copies the next batch of a tenant's unmigrated v1 messages into v2: one group (its
 * oldest unmigrated messages, in the order they were stored) becomes one add to the v2
 * session of the same id, senders become sender_id / sender_name, create_time the
 * millisecond timestamp. The v2 messages and the v1 rows' `migrated_id` commit in one
 * transaction, so a run killed at any point resumes without copying anything twice;
 * extraction of the copies runs in the background like any asynchronous add. Once every
 * v1 Cloud message is copied, the self-hosted v1 messages follow (migrate-self.ts).
 */
export async function migrateV1Batch(
  db: Db,
  memory: MemoryService,
  tenant: string,
  size: number,
): Promise<V1MigrationCounts> {
  if (size < 1) return v1MigrationCounts(db, tenant);
  // The sender registry's name (PATCH /api/v1/senders) wins over the name sent with the message.
  const rows = await db.query<Pick<V1MessageRow, Copied> & Row>(
    `SELECT m.message_id, m.group_id, m.sender, COALESCE(s.name, m.sender_name) AS sender_name,
            m.role, m.content, m.create_time
       FROM ${LIVE_V1_MESSAGES} m
       LEFT JOIN v1_senders s ON s.tenant_id = m.tenant_id AND s.sender_id = m.sender
      WHERE m.tenant_id = $1 AND m.migrated_id IS NULL
        AND m.group_id = (SELECT group_id FROM ${LIVE_V1_MESSAGES} f WHERE tenant_id = $1 AND migrated_id IS NULL
                          ORDER BY seq LIMIT 1)
      ORDER BY m.seq LIMIT $2`,
    [tenant, Math.max(1, Math.min(500, size))],
  );
  if (!rows.length)
    return v1MigrationCounts(db, tenant, await migrateSelfHostedBatch(db, memory, tenant, size));
  await memory.add(
    { tenantId: tenant },
    {
      ...V2_SCOPE,
      session_id: rows[0]!.group_id,
      async_mode: true,
      messages: rows.map((r) => ({
        sender_id: r.sender,
        sender_name: r.sender_name,
        role: r.role,
        content: r.content,
        timestamp: Number(r.create_time),
      })),
    },
    {
      inTx: async (tx, ids) => {
        const pairs = rows.map((r, i) => ({ message_id: r.message_id, migrated_id: ids[i] }));
        const marked = await tx.query(
          `UPDATE v1_messages v SET migrated_id = p.migrated_id, migrated_at = now()
             FROM jsonb_to_recordset($2::jsonb) AS p(message_id text, migrated_id text)
            WHERE v.tenant_id = $1 AND v.message_id = p.message_id AND v.migrated_id IS NULL
           RETURNING v.message_id`,
          [tenant, JSON.stringify(pairs)],
        );
        // Another migration of this tenant copied some of them first: copy nothing here.
        if (marked.length !== rows.length)
          throw new EngramError('Conflict', 'another migration of this tenant is running; try again');
      },
    },
  );
  return v1MigrationCounts(db, tenant, rows.length);
}
