import {
  V1_DEFAULT_GROUP,
  type V1AddInput,
  type V1AddResult,
  type V1DeleteInput,
  type V1GetInput,
  type V1Memory,
  type V1MemoryType,
  type V1SearchInput,
} from '../../contract/v1.js';
import type { Db } from '../../core/db.js';
import { EngramError, notFound } from '../../core/errors.js';
import type { Ctx } from '../memory/deps.js';
import { EPISODE_COLUMNS, type EpisodeRow, episodeItem } from '../memory/serialize.js';
import type { MemoryService } from '../memory/service.js';
import type { SearchService } from '../search/service.js';
import { migrateV1Batch, type V1MigrationCounts } from './migrate.js';
import { type AnyItem, type V1Face, v1Get, v1Record, v1Search } from './read.js';
import {
  findMessage,
  type GroupRow,
  groupRecord,
  messagesByEngineIds,
  rawMessage,
  type SenderRow,
  senderRecord,
  V1_SCOPE,
} from './store.js';

/** A record in v1 Cloud terms: the v1 type name, group_id for the session, no v2 partition. */
const cloudRecord = (item: AnyItem, memoryType: V1MemoryType): V1Memory => ({
  ...v1Record(item, memoryType),
  group_id: item.session_id ?? null,
});
const cloud = (group: string | null | undefined): V1Face<V1Memory> => ({
  scope: V1_SCOPE,
  session: group ?? null,
  record: cloudRecord,
});

/**
 * The legacy v1 (Cloud) operations. v1 messages are kept with their v1 fields and run
 * through the same memory engine under V1_SCOPE, so v1 clients get extraction, get and
 * search while their memories stay apart from v2 until migrated.
 */
export class V1Service {
  constructor(
    private readonly db: Db,
    private readonly memory: MemoryService,
    private readonly searcher: SearchService,
  ) {}

  /** Stores one message; the same message_id again changes nothing. */
  async add(ctx: Ctx, input: V1AddInput, defaultRole: 'user' | 'assistant'): Promise<V1AddResult> {
    const nothing: V1AddResult = { saved_memories: [], count: 0, status_info: 'accumulated' };
    if (await findMessage(this.db, ctx.tenantId, input.message_id)) return nothing;
    const group = input.group_id ?? V1_DEFAULT_GROUP;
    const senderName = input.sender_name ?? input.sender;
    const role = input.role ?? defaultRole;
    const [{ started }] = (await this.db.query<{ started: Date | string }>('SELECT now() AS started')) as [
      { started: Date | string },
    ];
    let status: string;
    try {
      ({
        data: { status },
      } = await this.memory.add(
        ctx,
        {
          ...V1_SCOPE,
          session_id: group,
          async_mode: false,
          messages: [
            {
              sender_id: input.sender,
              sender_name: senderName,
              role,
              content: input.content,
              timestamp: input.create_time,
            },
          ],
        },
        {
          inTx: async (tx, [engineId]) => {
            await tx.query(
              `INSERT INTO v1_messages (tenant_id, message_id, group_id, sender, sender_name, role, content,
                                        refer_list, create_time, engine_id)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)`,
              [
                ctx.tenantId,
                input.message_id,
                group,
                input.sender,
                senderName,
                role,
                input.content,
                JSON.stringify(input.refer_list ?? []),
                input.create_time,
                engineId,
              ],
            );
            await tx.query(
              `INSERT INTO v1_senders (tenant_id, sender_id, name) VALUES ($1, $2, $3)
               ON CONFLICT (tenant_id, sender_id) DO NOTHING`,
              [ctx.tenantId, input.sender, senderName],
            );
            if (input.group_id)
              await tx.query(
                `INSERT INTO v1_groups (tenant_id, group_id, name) VALUES ($1, $2, $3)
                 ON CONFLICT (tenant_id, group_id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
                 WHERE $4::boolean`,
                [ctx.tenantId, input.group_id, input.group_name ?? input.group_id, input.group_name != null],
              );
          },
        },
      ));
    } catch (err) {
      // The same message_id sent twice at once: the other request stored it.
      if (await findMessage(this.db, ctx.tenantId, input.message_id)) return nothing;
      throw err;
    }
    if (status !== 'extracted') return nothing;
    const saved = await this.db.query<EpisodeRow>(
      `SELECT ${EPISODE_COLUMNS} FROM episodes WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3
         AND session_id = $4 AND created_at >= $5 AND deleted_at IS NULL ORDER BY ts, id`,
      [ctx.tenantId, V1_SCOPE.app_id, V1_SCOPE.project_id, group, started],
    );
    const memories = saved.map((r) => cloudRecord(episodeItem(r, []), 'episodic_memory'));
    return { saved_memories: memories, count: memories.length, status_info: 'extracted' };
  }

  async flush(ctx: Ctx, groupId: string) {
    const r = await this.memory.flush(ctx, { ...V1_SCOPE, session_id: groupId });
    return { status_info: r.status };
  }

  get(ctx: Ctx, input: V1GetInput) {
    return v1Get(this.memory, ctx, cloud(input.group_id), {
      owner: (input.user_id ?? input.agent_id) as string,
      memoryType: input.memory_type,
      page: input.page,
      pageSize: input.limit,
    });
  }

  async search(ctx: Ctx, input: V1SearchInput) {
    const r = await v1Search(this.searcher, ctx, cloud(input.group_id), {
      owner: (input.user_id ?? input.agent_id) as string,
      memoryTypes: input.memory_types,
      query: input.query,
      method: input.retrieve_method,
      topK: input.top_k,
    });
    const byEngineId = await messagesByEngineIds(
      this.db,
      ctx.tenantId,
      r.unprocessed.map((m) => m.id),
    );
    const raw = r.unprocessed.flatMap((m) => {
      const row = byEngineId.get(m.id);
      return row ? [rawMessage(row, m.score)] : [];
    });
    return {
      memories: r.memories,
      raw_messages: raw,
      agent_memory: r.agent_memory,
      total_count: r.total_count,
    };
  }

  /** By owner and/or group, or one memory by id; answers nothing (the route sends 204). */
  async delete(ctx: Ctx, input: V1DeleteInput): Promise<void> {
    if (input.memory_id) {
      const found = await this.db.query(
        `SELECT 1 FROM episodes WHERE tenant_id = $1 AND id = $2 AND app_id = $3 AND project_id = $4
           AND deleted_at IS NULL`,
        [ctx.tenantId, input.memory_id.toLowerCase(), V1_SCOPE.app_id, V1_SCOPE.project_id],
      );
      if (!found.length) throw notFound(`no memory ${input.memory_id}`);
      await this.memory.deleteByIds(ctx, {
        memory_type: 'episode',
        memory_ids: [input.memory_id.toLowerCase()],
      });
      return;
    }
    await this.memory.delete(ctx, {
      ...V1_SCOPE,
      user_id: input.user_id ?? null,
      agent_id: input.agent_id ?? null,
      session_id: input.group_id ?? null,
    });
  }

  /** Renames a sender (creating it when unknown). */
  async patchSender(ctx: Ctx, senderId: string, name: string) {
    const rows = await this.db.query<SenderRow>(
      `INSERT INTO v1_senders (tenant_id, sender_id, name) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, sender_id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
       RETURNING *`,
      [ctx.tenantId, senderId, name],
    );
    return senderRecord(rows[0]!);
  }

  /**
   * Copies the tenant's next batch of at most `size` v1 messages into v2 (see
   * migrateV1Batch); size 0 only counts.
   */
  migrate(tenant: string, size: number): Promise<V1MigrationCounts> {
    return migrateV1Batch(this.db, this.memory, tenant, size);
  }

  async group(ctx: Ctx, groupId: string) {
    const rows = await this.db.query<GroupRow>(
      'SELECT * FROM v1_groups WHERE tenant_id = $1 AND group_id = $2',
      [ctx.tenantId, groupId],
    );
    if (!rows[0]) throw new EngramError('NotFound', `no group ${groupId}`);
    return groupRecord(rows[0]);
  }
}
