import type { FeedbackInput } from '../../contract/memory-write.js';
import type { ProfileData } from '../../contract/records.js';
import { notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Ctx, MemoryDeps } from './deps.js';

const TABLE = {
  episode: 'episodes',
  profile: 'profiles',
  agent_case: 'agent_cases',
  agent_skill: 'agent_skills',
} as const;

/**
 * feedback: stores a rating signal about one live memory of the tenant (404 otherwise).
 * Nothing else changes: the memory is not updated, suppressed or re-indexed.
 */
export async function storeFeedback(
  deps: MemoryDeps,
  ctx: Ctx,
  input: FeedbackInput,
): Promise<{ id: string }> {
  const memoryId = input.memory_id.toLowerCase();
  const rows = await deps.db.query<{ profile_data?: ProfileData }>(
    `SELECT ${input.memory_type === 'profile' ? 'profile_data' : '1 AS found'} FROM ${TABLE[input.memory_type]}
     WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [ctx.tenantId, memoryId],
  );
  const target = rows[0];
  if (!target) throw notFound(`${input.memory_type} ${input.memory_id} not found`);
  if (input.memory_type === 'profile') {
    const items = [
      ...(target.profile_data?.explicit_info ?? []),
      ...(target.profile_data?.implicit_traits ?? []),
    ];
    if (!items.some((i) => i.item_id === input.item_id))
      throw notFound(`profile item ${input.item_id} not found in profile ${input.memory_id}`);
  }
  const id = newId();
  await deps.db.query(
    `INSERT INTO feedback (tenant_id, id, memory_type, memory_id, item_id, rating, reason, note, suggestion, key_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      ctx.tenantId,
      id,
      input.memory_type,
      memoryId,
      input.item_id ?? null,
      input.rating,
      input.reason ?? null,
      input.note ?? null,
      input.suggestion ?? null,
      ctx.keyId ?? null,
    ],
  );
  return { id };
}
