import type { UpdateData, UpdateInput } from '../../contract/memory-write.js';
import type { Sql } from '../../core/db.js';
import { notFound } from '../../core/errors.js';
import type { TaskRow } from '../jobs/queue.js';
import { vectorText } from '../search/vector.js';
import { leadSentences, sentences } from '../text.js';
import type { Ctx, MemoryDeps } from './deps.js';
import { episodeEmbeddingText, insertFacts } from './extract.js';
import { factsFor } from './read.js';
import { EPISODE_COLUMNS, type EpisodeRow, episodeItem } from './serialize.js';

/**
 * update: rewrites an episode's narrative, summary or subject. The new text is embedded
 * and indexed before the answer (the full-text index is a generated column); the facts
 * derived from the narrative are refreshed by a background `memory.refresh` job, after
 * which reflect_state turns from `pending` to `done`. A patch equal to what is stored
 * writes nothing and answers `unchanged: true`. Extraction never rewrites an existing
 * episode, so the edit survives later consolidation.
 */
export async function updateEpisode(deps: MemoryDeps, ctx: Ctx, input: UpdateInput): Promise<UpdateData> {
  const current = await loadEpisode(deps.db, ctx, input.memory_id);
  const patch = {
    episode: input.patch.episode ?? current.episode,
    subject: input.patch.subject ?? current.subject,
    summary: input.patch.summary ?? current.summary,
  };
  const narrativeChanged = patch.episode !== current.episode;
  // A new narrative without a new summary gets a summary regenerated from it.
  if (narrativeChanged && input.patch.summary == null) patch.summary = leadSentences(patch.episode, 300);
  if (!narrativeChanged && patch.subject === current.subject && patch.summary === current.summary) {
    const facts = await factsFor(deps.db, ctx, [current.id]);
    return { ...episodeItem(current, facts.get(current.id) ?? []), unchanged: true };
  }
  const [vec] = await deps.embedder.embed([episodeEmbeddingText(patch)]);
  // The answer is read in the transaction: a worker may refresh the episode the moment it commits.
  const { updated, facts } = await deps.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE episodes SET episode = $3, subject = $4, summary = $5, embedding = $6::vector, edited_at = now(),
              reflect_state = CASE WHEN $7::boolean THEN 'pending' ELSE coalesce(reflect_state, 'done') END,
              updated_at = now()
       WHERE tenant_id = $1 AND id = $2`,
      [
        ctx.tenantId,
        current.id,
        patch.episode,
        patch.subject,
        patch.summary,
        vectorText(vec!),
        narrativeChanged,
      ],
    );
    if (narrativeChanged)
      await deps.queue.enqueue(tx, {
        tenantId: ctx.tenantId,
        type: 'memory.refresh',
        appId: current.app_id,
        projectId: current.project_id,
        chainKey: JSON.stringify(['episode', current.id]),
        object: 'episode',
        objectId: current.id,
        payload: { episode_id: current.id },
      });
    return { updated: await loadEpisode(tx, ctx, current.id), facts: await factsFor(tx, ctx, [current.id]) };
  });
  deps.queue.wake();
  deps.events.emit({
    tenantId: ctx.tenantId,
    appId: current.app_id,
    projectId: current.project_id,
    kind: 'episode',
    ownerIds: current.owner_ids,
    ids: [current.id],
    action: 'updated',
  });
  return { ...episodeItem(updated, facts.get(current.id) ?? []), unchanged: false };
}

async function loadEpisode(db: Sql, ctx: Ctx, id: string): Promise<EpisodeRow> {
  const rows = await db.query<EpisodeRow>(
    `SELECT ${EPISODE_COLUMNS} FROM episodes WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [ctx.tenantId, id.toLowerCase()],
  );
  if (!rows[0]) throw notFound(`episode ${id} not found`);
  return rows[0];
}

/**
 * The `memory.refresh` job: after a hand edit, the episode's atomic facts are re-derived
 * from the new narrative (one fact per sentence, keeping the episode's provenance), then
 * reflect_state becomes `done`.
 */
export async function refreshEpisode(deps: MemoryDeps, task: TaskRow): Promise<{ facts: number }> {
  const ctx: Ctx = { tenantId: task.tenant_id };
  const id = String(task.payload['episode_id']);
  const rows = await deps.db.query<EpisodeRow>(
    `SELECT ${EPISODE_COLUMNS} FROM episodes WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`,
    [ctx.tenantId, id],
  );
  const ep = rows[0];
  if (!ep) return { facts: 0 };
  const facts = sentences(ep.episode)
    .filter((s) => s.split(/\s+/).length >= 3)
    .slice(0, 100);
  const vectors = facts.length ? await deps.embedder.embed(facts) : [];
  await deps.db.transaction(async (tx) => {
    // Read again under the row's lock: a delete of the episode or of an owner acknowledged
    // while the facts were embedded holds (the new facts take the owners as they are now).
    const still = await tx.query<EpisodeRow>(
      `SELECT ${EPISODE_COLUMNS} FROM episodes WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [ctx.tenantId, id],
    );
    const now = still[0];
    if (!now) return; // deleted meanwhile
    if (now.episode !== ep.episode) return; // edited again meanwhile: the next refresh handles it
    await tx.query(
      'UPDATE atomic_facts SET deleted_at = now() WHERE tenant_id = $1 AND episode_id = $2 AND deleted_at IS NULL',
      [ctx.tenantId, id],
    );
    await insertFacts(
      tx,
      ctx.tenantId,
      facts.map((content, i) => ({
        episodeId: id,
        appId: now.app_id,
        projectId: now.project_id,
        sessionId: now.session_id,
        ownerIds: now.owner_ids,
        ts: now.ts,
        content,
        sources: now.source_message_ids,
        vector: vectors[i]!,
      })),
    );
    await tx.query(`UPDATE episodes SET reflect_state = 'done' WHERE tenant_id = $1 AND id = $2`, [
      ctx.tenantId,
      id,
    ]);
  });
  return { facts: facts.length };
}
