import type {
  DeleteByIdsData,
  DeleteByIdsInput,
  DeleteData,
  DeleteInput,
} from '../../contract/memory-write.js';
import type { Sql } from '../../core/db.js';
import type { MemoryChange } from '../events.js';
import type { Ctx, MemoryDeps } from './deps.js';
import { LIVE_MESSAGES } from './stored-message.js';

/**
 * delete by scope (soft delete; counts what was removed across memory types):
 * - user_id alone: the user's episodes, facts and profile, and every message the user sent,
 *   extracted or not; the other senders' extracted turns of the user's conversations stop
 *   being theirs (owner_ids). An episode shared with other users loses this owner only (and is
 *   deleted once nobody owns it).
 * - user_id + session_id: only what that session produced for the user, and the user's
 *   messages of that session; the profile stays.
 * - agent_id (+ session_id): the agent's cases (of that session), its skills when no
 *   session narrows it, and the agent's messages (of that session).
 * - session_id alone: everything extracted from the session, and all its messages.
 * Deleted messages are in no read or search (LIVE_MESSAGES) until `engram purge` removes
 * them. The messages go first: their row locks make the delete wait for an extraction of
 * them that is committing, so the episode it writes is deleted too.
 */
export async function deleteByScope(deps: MemoryDeps, ctx: Ctx, input: DeleteInput): Promise<DeleteData> {
  const filters = (['user_id', 'agent_id', 'session_id'] as const).filter((k) => input[k] != null);
  const changes: MemoryChange[] = [];
  const count = await deps.db.transaction(async (tx) => {
    const base = [ctx.tenantId, input.app_id, input.project_id];
    const scope = 'tenant_id = $1 AND app_id = $2 AND project_id = $3 AND deleted_at IS NULL';
    const session = input.session_id ?? null;
    const change = (kind: MemoryChange['kind'], ownerIds: string[], ids: string[]) => {
      if (ids.length)
        changes.push({
          tenantId: ctx.tenantId,
          appId: input.app_id,
          projectId: input.project_id,
          kind,
          ownerIds,
          ids,
          action: 'deleted',
        });
      return ids.length;
    };
    let n = 0;
    if (input.user_id != null) {
      const user = input.user_id;
      const p = [...base, user, session];
      const where = `${scope} AND owner_ids @> ARRAY[$4]::text[] AND ($5::text IS NULL OR session_id = $5)`;
      await releaseTurns(tx, scope, p);
      // Episodes owned by this user alone are deleted; shared ones drop the owner.
      const gone = await tx.query<{ id: string }>(
        `UPDATE episodes SET deleted_at = now(), delete_reason = 'scope', updated_at = now()
         WHERE ${where} AND cardinality(owner_ids) = 1 RETURNING id`,
        p,
      );
      const shared = await tx.query<{ id: string }>(
        `UPDATE episodes SET owner_ids = array_remove(owner_ids, $4), updated_at = now() WHERE ${where} RETURNING id`,
        p,
      );
      await tx.query(
        `UPDATE atomic_facts SET deleted_at = now() WHERE ${where} AND cardinality(owner_ids) = 1`,
        p,
      );
      await tx.query(`UPDATE atomic_facts SET owner_ids = array_remove(owner_ids, $4) WHERE ${where}`, p);
      n += change(
        'episode',
        [user],
        [...gone, ...shared].map((r) => r.id),
      );
      if (session === null) {
        const profiles = await tx.query<{ id: string }>(
          `UPDATE profiles SET deleted_at = now() WHERE ${scope} AND user_id = $4 RETURNING id`,
          [...base, user],
        );
        n += change(
          'profile',
          [user],
          profiles.map((r) => r.id),
        );
      }
    } else if (input.agent_id != null) {
      const agent = input.agent_id;
      await releaseTurns(tx, scope, [...base, agent, session]);
      const cases = await tx.query<{ id: string }>(
        `UPDATE agent_cases SET deleted_at = now(), updated_at = now()
         WHERE ${scope} AND agent_id = $4 AND ($5::text IS NULL OR session_id = $5) RETURNING id`,
        [...base, agent, session],
      );
      n += change(
        'agent_case',
        [agent],
        cases.map((r) => r.id),
      );
      if (session === null) {
        const skills = await tx.query<{ id: string }>(
          `UPDATE agent_skills SET deleted_at = now(), updated_at = now() WHERE ${scope} AND agent_id = $4 RETURNING id`,
          [...base, agent],
        );
        n += change(
          'agent_skill',
          [agent],
          skills.map((r) => r.id),
        );
      }
    } else {
      const p = [...base, session];
      await lockTurns(tx, `${scope} AND session_id = $4`, p);
      await deleteMessages(tx, `${scope} AND session_id = $4`, p);
      const eps = await tx.query<{ id: string; owner_ids: string[] }>(
        `UPDATE episodes SET deleted_at = now(), delete_reason = 'scope', updated_at = now()
         WHERE ${scope} AND session_id = $4 RETURNING id, owner_ids`,
        p,
      );
      await tx.query(`UPDATE atomic_facts SET deleted_at = now() WHERE ${scope} AND session_id = $4`, p);
      n += change(
        'episode',
        [...new Set(eps.flatMap((e) => e.owner_ids))],
        eps.map((e) => e.id),
      );
      const cases = await tx.query<{ id: string; agent_id: string }>(
        `UPDATE agent_cases SET deleted_at = now(), updated_at = now() WHERE ${scope} AND session_id = $4 RETURNING id, agent_id`,
        p,
      );
      n += change(
        'agent_case',
        [...new Set(cases.map((c) => c.agent_id))],
        cases.map((c) => c.id),
      );
    }
    return n;
  });
  for (const c of changes) deps.events.emit(c);
  return { filters, count };
}

/**
 * Locks the live turns a delete changes, in id order, before it changes anything: deletes
 * that share turns (two people of one conversation, a person and their session) then wait
 * for each other instead of taking each other's turns and statistics keys in opposite
 * orders, which PostgreSQL ended as deadlocks.
 */
async function lockTurns(tx: Sql, where: string, params: unknown[]) {
  await tx.query(`SELECT 1 FROM ${LIVE_MESSAGES} m WHERE ${where} ORDER BY id FOR UPDATE`, params);
}

/**
 * An owner's turns in the scope ($4 the user or agent, $5 the session or null): those they
 * sent are deleted, extracted or not, and they no longer own the others of their
 * conversations (a user, the other senders' turns; an agent, those of a conversation of
 * agents alone: extract.ts). Every turn changed is locked first, in id order (lockTurns).
 */
async function releaseTurns(tx: Sql, scope: string, params: unknown[]) {
  const inSession = '($5::text IS NULL OR session_id = $5)';
  await lockTurns(
    tx,
    `${scope} AND (sender_id = $4 OR owner_ids @> ARRAY[$4]::text[]) AND ${inSession}`,
    params,
  );
  await deleteMessages(tx, `${scope} AND sender_id = $4 AND ${inSession}`, params);
  await tx.query(
    `UPDATE messages SET owner_ids = array_remove(owner_ids, $4)
     WHERE ${scope} AND owner_ids @> ARRAY[$4]::text[] AND ${inSession}`,
    params,
  );
}

/** The scope's messages, extracted or not. */
async function deleteMessages(tx: Sql, where: string, params: unknown[]) {
  await tx.query(`UPDATE messages SET deleted_at = now() WHERE ${where}`, params);
}

/**
 * delete_by_ids: soft-deletes episodes of the tenant by id, with their atomic facts (and
 * so every search-index copy: facts and episodes are what the indexes hold). Ids that do
 * not exist, are deleted already or belong to another tenant are skipped silently.
 */
export async function deleteEpisodesByIds(
  deps: MemoryDeps,
  ctx: Ctx,
  input: DeleteByIdsInput,
): Promise<DeleteByIdsData> {
  const ids = [...new Set(input.memory_ids.map((id) => id.toLowerCase()))];
  const reason = input.reason?.code ?? 'unspecified';
  const gone = await deps.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string; app_id: string; project_id: string; owner_ids: string[] }>(
      `UPDATE episodes SET deleted_at = now(), delete_reason = $3, updated_at = now()
       WHERE tenant_id = $1 AND deleted_at IS NULL AND id IN (SELECT jsonb_array_elements_text($2::jsonb))
       RETURNING id, app_id, project_id, owner_ids`,
      [ctx.tenantId, JSON.stringify(ids), reason],
    );
    if (rows.length)
      await tx.query(
        `UPDATE atomic_facts SET deleted_at = now()
         WHERE tenant_id = $1 AND deleted_at IS NULL AND episode_id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
        [ctx.tenantId, JSON.stringify(rows.map((r) => r.id))],
      );
    return rows;
  });
  for (const r of gone)
    deps.events.emit({
      tenantId: ctx.tenantId,
      appId: r.app_id,
      projectId: r.project_id,
      kind: 'episode',
      ownerIds: r.owner_ids,
      ids: [r.id],
      action: 'deleted',
    });
  return { memory_type: 'episode', success: true };
}
