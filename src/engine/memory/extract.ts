import type { ProfileData } from '../../contract/records.js';
import { jsonParam, type Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { Extraction, SegmentMessage } from '../../core/ports.js';
import { agentChain, type Ctx, type MemoryDeps, type Scope } from './deps.js';
import { type SegmentRow, segmentMessages, toSegmentMessage } from './messages.js';
import { emptyProfile, mergeProfile } from './profile.js';
import { LIVE_MESSAGES } from './stored-message.js';

/** pgvector's text form of a vector. */
export const vectorText = (v: readonly number[]) => `[${v.join(',')}]`;

export const episodeEmbeddingText = (e: { subject: string; summary: string; episode: string }) =>
  `${e.subject}\n${e.summary}\n${e.episode}`.slice(0, 4000);
export const caseEmbeddingText = (c: { task_intent: string; approach: string }) =>
  `${c.task_intent}\n${c.approach}`;
export const skillEmbeddingText = (k: { name: string; description: string; content: string }) =>
  `${k.name}\n${k.description}\n${k.content}`;

/**
 * Extracts one segment into memory: the episode with its atomic facts, each human's
 * profile, and an agent case per tool-using assistant. The model (or offline extractor)
 * and the embedder run outside any transaction; the writes commit together with the
 * segment's messages turning `extracted`, so a retried job never writes twice.
 * Returns false when the segment was already extracted. `known`: the segment's messages
 * (state `segmented`, in order) as the caller just read or wrote them; else they are read.
 */
export async function extractSegment(
  deps: MemoryDeps,
  ctx: Ctx,
  scope: Scope,
  segmentId: string,
  known?: readonly SegmentRow[],
): Promise<boolean> {
  const pending =
    known ?? (await segmentMessages(deps.db, ctx.tenantId, segmentId)).filter((r) => r.state === 'segmented');
  if (!pending.length) return false;
  const segment = pending.map(toSegmentMessage);
  const humans = distinct(segment.filter((m) => m.role === 'user').map((m) => m.sender_id));
  const agents = distinct(segment.filter((m) => m.role === 'assistant').map((m) => m.sender_id));
  const extraction = await deps.extractor.extract(segment, { humans, agents });
  const vectors = await deps.embedder.embed([
    episodeEmbeddingText(extraction.episode),
    ...extraction.episode.facts.map((f) => f.content),
    ...extraction.cases.map(caseEmbeddingText),
  ]);

  const written = await deps.db.transaction(async (tx) => {
    // The segment's live messages, locked: a delete waits for this write, and a message
    // deleted since the read above is not locked here (the segment is read again below).
    const still = await tx.query(
      `SELECT id FROM ${LIVE_MESSAGES} m WHERE tenant_id = $1 AND segment_id = $2 AND state = 'segmented' FOR UPDATE`,
      [ctx.tenantId, segmentId],
    );
    if (still.length !== pending.length) return still.length ? 'changed' : undefined;
    const ids = await writeExtraction(tx, ctx, scope, segmentId, segment, humans, extraction, vectors);
    // The turns are owned from now on like the episode made from them (their humans).
    await tx.query(
      `UPDATE messages SET state = 'extracted', owner_ids = ARRAY(SELECT jsonb_array_elements_text($3::jsonb))
       WHERE tenant_id = $1 AND segment_id = $2 AND state = 'segmented'`,
      [ctx.tenantId, segmentId, JSON.stringify(humans)],
    );
    const casesByAgent = new Set(extraction.cases.map((c) => c.agent_id));
    for (const agentId of casesByAgent)
      await deps.queue.enqueue(tx, {
        tenantId: ctx.tenantId,
        type: 'memory.skill',
        appId: scope.appId,
        projectId: scope.projectId,
        chainKey: agentChain(scope, agentId),
        object: 'agent',
        objectId: agentId,
        payload: { agent_id: agentId },
      });
    return ids;
  });
  if (!written) return false;
  if (written === 'changed') return extractSegment(deps, ctx, scope, segmentId);
  const base = {
    tenantId: ctx.tenantId,
    appId: scope.appId,
    projectId: scope.projectId,
    action: 'created' as const,
  };
  deps.events.emit({ ...base, kind: 'episode', ownerIds: humans, ids: [written.episodeId] });
  for (const p of written.profiles)
    deps.events.emit({ ...base, kind: 'profile', ownerIds: [p.userId], ids: [p.id], action: 'updated' });
  for (const c of written.cases)
    deps.events.emit({ ...base, kind: 'agent_case', ownerIds: [c.agentId], ids: [c.id] });
  deps.queue.wake();
  return true;
}

/**
 * Writes one extraction (episode, facts, cases, profiles) with its vectors, in the
 * caller's transaction; vectors are in the order extractSegment embeds the texts.
 */
export async function writeExtraction(
  tx: Sql,
  ctx: Ctx,
  scope: Scope,
  segmentId: string,
  segment: SegmentMessage[],
  humans: string[],
  x: Extraction,
  vectors: number[][],
) {
  const first = segment[0]!;
  const sessionId = first.session_id;
  const ts = first.timestamp;
  const hasTools = segment.some((m) => m.tool_calls?.length || m.role === 'tool');
  const episodeId = newId();
  const ownerJson = JSON.stringify(humans);
  const allIds = segment.map((m) => m.id);
  let v = 0;
  await tx.query(
    `INSERT INTO episodes (tenant_id, id, app_id, project_id, session_id, segment_id, owner_ids, sender_ids, ts,
                           subject, summary, episode, type, source_message_ids, embedding)
     VALUES ($1, $2, $3, $4, $5, $6, ARRAY(SELECT jsonb_array_elements_text($7::jsonb)),
             ARRAY(SELECT jsonb_array_elements_text($8::jsonb)), $9, $10, $11, $12, $13, $14::jsonb, $15::vector)`,
    [
      ctx.tenantId,
      episodeId,
      scope.appId,
      scope.projectId,
      sessionId,
      segmentId,
      ownerJson,
      JSON.stringify(distinct(segment.map((m) => m.sender_id))),
      ts,
      x.episode.subject,
      x.episode.summary,
      x.episode.episode,
      hasTools ? 'AgentConversation' : 'Conversation',
      JSON.stringify(allIds),
      vectorText(vectors[v++]!),
    ],
  );
  const byId = new Map(segment.map((m) => [m.id, m]));
  await insertFacts(
    tx,
    ctx.tenantId,
    x.episode.facts.map((fact) => {
      const sources = fact.message_ids.filter((id) => byId.has(id));
      return {
        episodeId,
        appId: scope.appId,
        projectId: scope.projectId,
        sessionId,
        ownerIds: humans,
        ts: sources.length ? Math.min(...sources.map((id) => byId.get(id)!.timestamp)) : ts,
        content: fact.content,
        sources: sources.length ? sources : allIds,
        vector: vectors[v++]!,
      };
    }),
  );
  const cases: { id: string; agentId: string }[] = [];
  for (const c of x.cases) {
    const id = newId();
    cases.push({ id, agentId: c.agent_id });
    const sources = segment
      .filter((m) => m.sender_id === c.agent_id || m.role !== 'assistant')
      .map((m) => m.id);
    await tx.query(
      `INSERT INTO agent_cases (tenant_id, id, app_id, project_id, agent_id, session_id, segment_id, ts, task_intent,
                                approach, quality_score, key_insight, source_message_ids, embedding)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::vector)`,
      [
        ctx.tenantId,
        id,
        scope.appId,
        scope.projectId,
        c.agent_id,
        sessionId,
        segmentId,
        ts,
        c.task_intent,
        c.approach,
        c.quality_score,
        c.key_insight,
        JSON.stringify(sources),
        vectorText(vectors[v++]!),
      ],
    );
  }
  const profiles: { id: string; userId: string }[] = [];
  const now = new Date().toISOString();
  for (const obs of x.profiles) {
    if (!humans.includes(obs.user_id) || (!obs.explicit_info.length && !obs.implicit_traits.length)) continue;
    profiles.push({
      id: await upsertProfile(tx, ctx, scope, obs.user_id, (p) => mergeProfile(p, obs, now)),
      userId: obs.user_id,
    });
  }
  return { episodeId, cases, profiles };
}

export interface FactRecord {
  episodeId: string;
  appId: string;
  projectId: string;
  sessionId: string | null;
  ownerIds: string[];
  ts: number | string;
  content: string;
  sources: string[];
  vector: readonly number[];
}

/** Atomic facts with their vectors, in one statement whatever their number. */
export async function insertFacts(tx: Sql, tenantId: string, facts: readonly FactRecord[]): Promise<void> {
  if (!facts.length) return;
  await tx.query(
    `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, session_id, owner_ids, ts, content,
                               source_message_ids, embedding)
     SELECT $1, x.id, x.episode_id, x.app_id, x.project_id, x.session_id,
            ARRAY(SELECT jsonb_array_elements_text(x.owner_ids)), x.ts, x.content, x.sources, x.embedding::vector
     FROM jsonb_to_recordset($2::jsonb) AS x(i int, id text, episode_id text, app_id text, project_id text,
          session_id text, owner_ids jsonb, ts bigint, content text, sources jsonb, embedding text)
     ORDER BY x.i`,
    [
      tenantId,
      jsonParam(
        facts.map((f, i) => ({
          i,
          id: newId(),
          episode_id: f.episodeId,
          app_id: f.appId,
          project_id: f.projectId,
          session_id: f.sessionId,
          owner_ids: f.ownerIds,
          ts: f.ts,
          content: f.content,
          sources: f.sources,
          embedding: vectorText(f.vector),
        })),
      ),
    ],
  );
}

export interface LockedProfile {
  id: string;
  profile_data: ProfileData;
  version: number;
}

/** Locks one user's profile for this transaction and reads it (undefined: none yet). */
export async function lockProfile(
  tx: Sql,
  ctx: Ctx,
  scope: Scope,
  userId: string,
): Promise<LockedProfile | undefined> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 11))', [
    JSON.stringify([ctx.tenantId, scope.appId, scope.projectId, userId]),
  ]);
  const rows = await tx.query<{ id: string; profile_data: ProfileData; version: number }>(
    `SELECT id, profile_data, version FROM profiles
     WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND user_id = $4 AND deleted_at IS NULL`,
    [ctx.tenantId, scope.appId, scope.projectId, userId],
  );
  return rows[0] && { ...rows[0], version: Number(rows[0].version) };
}

/** Writes a profile read by lockProfile (creating it when there was none); its version advances. */
export async function writeProfile(
  tx: Sql,
  ctx: Ctx,
  scope: Scope,
  userId: string,
  existing: LockedProfile | undefined,
  next: ProfileData,
): Promise<{ id: string; version: number }> {
  if (existing) {
    const [row] = await tx.query<{ version: number }>(
      `UPDATE profiles SET profile_data = $3::jsonb, version = version + 1, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING version`,
      [ctx.tenantId, existing.id, JSON.stringify(next)],
    );
    return { id: existing.id, version: Number(row!.version) };
  }
  const id = newId();
  await tx.query(
    `INSERT INTO profiles (tenant_id, id, app_id, project_id, user_id, profile_data) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [ctx.tenantId, id, scope.appId, scope.projectId, userId, JSON.stringify(next)],
  );
  return { id, version: 1 };
}

/** Read-modify-write of one user's profile under a lock on that user. Returns the profile id. */
export async function upsertProfile(
  tx: Sql,
  ctx: Ctx,
  scope: Scope,
  userId: string,
  change: (p: ProfileData) => ProfileData,
): Promise<string> {
  const existing = await lockProfile(tx, ctx, scope, userId);
  const next = change(existing?.profile_data ?? emptyProfile());
  return (await writeProfile(tx, ctx, scope, userId, existing, next)).id;
}

const distinct = (xs: string[]) => [...new Set(xs)];
