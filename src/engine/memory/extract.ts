import type { ProfileData } from '../../contract/records.js';
import { jsonParam, type Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { Extraction, SegmentMessage } from '../../core/ports.js';
import { type Statement, withClauses } from '../../core/statement.js';
import { vectorText } from '../search/vector.js';
import { agentChain, type Ctx, type MemoryDeps, type Scope } from './deps.js';
import { type PendingMessage, type SegmentRow, segmentMessages, toSegmentMessage } from './messages.js';
import { emptyProfile, mergeProfile } from './profile.js';
import { LIVE_MESSAGES } from './stored-message.js';

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
  known?: readonly Pick<PendingMessage, keyof SegmentRow | 'unembedded'>[],
): Promise<boolean> {
  const pending =
    known ?? (await segmentMessages(deps.db, ctx.tenantId, segmentId)).filter((r) => r.state === 'segmented');
  if (!pending.length) return false;
  const segment = pending.map(toSegmentMessage);
  const humans = distinct(segment.filter((m) => m.role === 'user').map((m) => m.sender_id));
  const agents = distinct(segment.filter((m) => m.role === 'assistant').map((m) => m.sender_id));
  const extraction = await deps.extractor.extract(segment, { humans, agents });
  // The turns without an embedding get theirs with the episode's and the facts' (one call),
  // written by the UPDATE that marks them extracted: one new row version per turn.
  const texts = [
    episodeEmbeddingText(extraction.episode),
    ...extraction.episode.facts.map((f) => f.content),
    ...extraction.cases.map(caseEmbeddingText),
  ];
  const turns = pending.filter((m) => m.unembedded && m.content !== '');
  const all = await deps.embedder.embed([...texts, ...turns.map((m) => m.content)]);
  const vectors = all.slice(0, texts.length);
  const turnVectors = Object.fromEntries(turns.map((m, i) => [m.id, vectorText(all[texts.length + i]!)]));

  const written = await deps.db.transaction(async (tx) => {
    // The segment's live messages, locked (a delete waits for this write, and a message
    // deleted since the read above is not locked here) in id order, the order a delete
    // locks turns in (delete.ts, lockTurns), and the profiles the extraction changes,
    // locked too: one statement. The segment's session is named beside its id: both the
    // segment index and the session's open messages (messages_open) then find its rows
    // alone. By tenant and state alone, the planner's pick on a store whose statistics
    // lag, the open-messages index was read for every segmented turn of the tenant.
    const users = observedUsers(humans, extraction);
    const [locked] = await tx.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM (SELECT id FROM ${LIVE_MESSAGES} m
                 WHERE tenant_id = $1 AND app_id = $4 AND project_id = $5 AND session_id = $6
                   AND segment_id = $2 AND state = 'segmented' ORDER BY id FOR UPDATE) l)::int AS n,
              ${PROFILE_LOCKS('$3')} AS profiles`,
      [
        ctx.tenantId,
        segmentId,
        profileLockKeys(ctx, scope, users),
        scope.appId,
        scope.projectId,
        pending[0]!.session_id,
      ],
    );
    if (locked!.n !== pending.length) return locked!.n ? 'changed' : undefined;
    // The turns are owned from now on like the episode made from them (their humans), in
    // the statement that writes the extraction; a conversation of agents alone (an agent's
    // own note) by its agents, so an agent still finds what it said once it is extracted.
    const ids = await writeExtraction(tx, ctx, scope, segmentId, segment, humans, extraction, vectors, {
      locked: true,
      last: {
        sql: `UPDATE messages m SET state = 'extracted', owner_ids = ARRAY(SELECT jsonb_array_elements_text($3::jsonb)),
                     embedding = coalesce(($4::jsonb ->> m.id)::vector, m.embedding)
              WHERE tenant_id = $1 AND segment_id = $2 AND state = 'segmented'`,
        params: [
          ctx.tenantId,
          segmentId,
          JSON.stringify(humans.length ? humans : agents),
          JSON.stringify(turnVectors),
        ],
      },
    });
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

/** An observation an extraction writes: about a human of the segment, and not empty. */
const changesProfile = (humans: readonly string[], o: Extraction['profiles'][number]) =>
  humans.includes(o.user_id) && (o.explicit_info.length > 0 || o.implicit_traits.length > 0);

/** The users whose profile an extraction changes: humans of the segment it observed something about. */
function observedUsers(humans: readonly string[], x: Extraction): string[] {
  return distinct(x.profiles.filter((o) => changesProfile(humans, o)).map((o) => o.user_id));
}

/**
 * Writes one extraction (episode, facts, cases, profiles) with its vectors, in the
 * caller's transaction; vectors are in the order extractSegment embeds the texts. The
 * profiles it changes are locked (unless `locked`: the caller did) and read, then every
 * row is written by one statement, whose last part is `last` when given.
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
  opts: { locked?: boolean; last?: Statement } = {},
) {
  const first = segment[0]!;
  const sessionId = first.session_id;
  const ts = first.timestamp;
  const hasTools = segment.some((m) => m.tool_calls?.length || m.role === 'tool');
  const episodeId = newId();
  const allIds = segment.map((m) => m.id);
  let v = 0;
  const writes: Statement[] = [
    {
      sql: `INSERT INTO episodes (tenant_id, id, app_id, project_id, session_id, segment_id, owner_ids, sender_ids, ts,
                                  subject, summary, episode, type, source_message_ids, embedding)
            VALUES ($1, $2, $3, $4, $5, $6, ARRAY(SELECT jsonb_array_elements_text($7::jsonb)),
                    ARRAY(SELECT jsonb_array_elements_text($8::jsonb)), $9, $10, $11, $12, $13, $14::jsonb, $15::vector)`,
      params: [
        ctx.tenantId,
        episodeId,
        scope.appId,
        scope.projectId,
        sessionId,
        segmentId,
        JSON.stringify(humans),
        JSON.stringify(distinct(segment.map((m) => m.sender_id))),
        ts,
        x.episode.subject,
        x.episode.summary,
        x.episode.episode,
        hasTools ? 'AgentConversation' : 'Conversation',
        JSON.stringify(allIds),
        vectorText(vectors[v++]!),
      ],
    },
  ];
  const byId = new Map(segment.map((m) => [m.id, m]));
  const facts = factsInsert(
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
  if (facts) writes.push(facts);
  const cases: { id: string; agentId: string }[] = [];
  for (const c of x.cases) {
    const id = newId();
    cases.push({ id, agentId: c.agent_id });
    const sources = segment
      .filter((m) => m.sender_id === c.agent_id || m.role !== 'assistant')
      .map((m) => m.id);
    writes.push({
      sql: `INSERT INTO agent_cases (tenant_id, id, app_id, project_id, agent_id, session_id, segment_id, ts, task_intent,
                                     approach, quality_score, key_insight, source_message_ids, embedding)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::vector)`,
      params: [
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
    });
  }
  const profiles = await mergeProfiles(tx, ctx, scope, humans, x, opts.locked ?? false);
  writes.push(...profiles.writes);
  const all = withClauses(writes, opts.last);
  await tx.query(all.sql, all.params);
  return { episodeId, cases, profiles: profiles.written };
}

/**
 * The profile changes of an extraction: each observation merged in turn into its user's
 * profile as read under the users' locks (taken here unless `locked`), every profile then
 * written once, its version advanced by the number of observations merged into it.
 */
async function mergeProfiles(
  tx: Sql,
  ctx: Ctx,
  scope: Scope,
  humans: readonly string[],
  x: Extraction,
  locked: boolean,
): Promise<{ writes: Statement[]; written: { id: string; userId: string }[] }> {
  const users = observedUsers(humans, x);
  if (!users.length) return { writes: [], written: [] };
  if (!locked) await tx.query(`SELECT ${PROFILE_LOCKS('$1')}`, [profileLockKeys(ctx, scope, users)]);
  const rows = await tx.query<{ id: string; user_id: string; profile_data: ProfileData; version: number }>(
    `SELECT id, user_id, profile_data, version FROM profiles
     WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND deleted_at IS NULL
       AND user_id IN (SELECT jsonb_array_elements_text($4::jsonb))`,
    [ctx.tenantId, scope.appId, scope.projectId, JSON.stringify(users)],
  );
  const current = new Map(
    rows.map((r) => [r.user_id, { id: r.id, existed: true, data: r.profile_data, merges: 0 }]),
  );
  const now = new Date().toISOString();
  const written: { id: string; userId: string }[] = [];
  for (const obs of x.profiles) {
    if (!changesProfile(humans, obs)) continue;
    const p = current.get(obs.user_id) ?? { id: newId(), existed: false, data: emptyProfile(), merges: 0 };
    p.data = mergeProfile(p.data, obs, now);
    p.merges++;
    current.set(obs.user_id, p);
    written.push({ id: p.id, userId: obs.user_id });
  }
  const changed = [...current].filter(([, p]) => p.merges > 0);
  const rowsOf = (existed: boolean) =>
    jsonParam(
      changed
        .filter(([, p]) => p.existed === existed)
        .map(([userId, p]) => ({ id: p.id, user_id: userId, data: p.data, merges: p.merges })),
    );
  const writes: Statement[] = [];
  if (changed.some(([, p]) => p.existed))
    writes.push({
      sql: `UPDATE profiles p SET profile_data = x.data, version = p.version + x.merges, updated_at = now()
            FROM jsonb_to_recordset($2::jsonb) AS x(id text, data jsonb, merges int)
            WHERE p.tenant_id = $1 AND p.id = x.id`,
      params: [ctx.tenantId, rowsOf(true)],
    });
  if (changed.some(([, p]) => !p.existed))
    writes.push({
      sql: `INSERT INTO profiles (tenant_id, id, app_id, project_id, user_id, profile_data, version)
            SELECT $1, x.id, $2, $3, x.user_id, x.data, x.merges
            FROM jsonb_to_recordset($4::jsonb) AS x(id text, user_id text, data jsonb, merges int)`,
      params: [ctx.tenantId, scope.appId, scope.projectId, rowsOf(false)],
    });
  return { writes, written };
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

/** The statement inserting atomic facts with their vectors, whatever their number (none: undefined). */
function factsInsert(tenantId: string, facts: readonly FactRecord[]): Statement | undefined {
  if (!facts.length) return undefined;
  return {
    sql: `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, session_id, owner_ids, ts, content,
                                    source_message_ids, embedding)
          SELECT $1, x.id, x.episode_id, x.app_id, x.project_id, x.session_id,
                 ARRAY(SELECT jsonb_array_elements_text(x.owner_ids)), x.ts, x.content, x.sources, x.embedding::vector
          FROM jsonb_to_recordset($2::jsonb) AS x(i int, id text, episode_id text, app_id text, project_id text,
               session_id text, owner_ids jsonb, ts bigint, content text, sources jsonb, embedding text)
          ORDER BY x.i`,
    params: [
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
  };
}

/** Atomic facts with their vectors, in one statement whatever their number. */
export async function insertFacts(tx: Sql, tenantId: string, facts: readonly FactRecord[]): Promise<void> {
  const insert = factsInsert(tenantId, facts);
  if (insert) await tx.query(insert.sql, insert.params);
}

/** The keys of the locks on the users' profiles, as a jsonb array parameter for PROFILE_LOCKS. */
const profileLockKeys = (ctx: Ctx, scope: Scope, users: readonly string[]) =>
  JSON.stringify(users.map((u) => JSON.stringify([ctx.tenantId, scope.appId, scope.projectId, u])));

/**
 * SQL taking the profile locks named by the keys in the jsonb array parameter `param`
 * (profileLockKeys) for this transaction, in key order (extraction, lockProfile).
 */
const PROFILE_LOCKS = (param: string) =>
  `(SELECT count(pg_advisory_xact_lock(hashtextextended(k, 11))::text)
    FROM (SELECT jsonb_array_elements_text(${param}::jsonb) AS k ORDER BY 1) s)`;

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
  await tx.query(`SELECT ${PROFILE_LOCKS('$1')}`, [profileLockKeys(ctx, scope, [userId])]);
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

const distinct = (xs: string[]) => [...new Set(xs)];
