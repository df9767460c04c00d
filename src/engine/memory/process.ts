import type { Row, Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { TaskQueue, TaskRow } from '../jobs/queue.js';
import { vectorText } from '../search/vector.js';
import { cutSegments } from './boundary.js';
import { type Ctx, type MemoryDeps, type Scope, sessionChain } from './deps.js';
import { extractSegment } from './extract.js';
import { embedMessages, SEGMENT_COLUMNS, type SegmentRow, toSegmentMessage } from './messages.js';
import { LIVE_MESSAGES } from './stored-message.js';

/**
 * The `memory.process` job, one per add or flush, run in order per session:
 * 1. the messages it brought join the session buffer, and the buffer is cut at extraction
 *    boundaries (everything, on flush);
 * 2. one UPDATE moves every message concerned (queued -> buffered or segmented, buffered ->
 *    segmented) and gives the messages left in the buffer their embedding (so a turn waiting
 *    for a boundary is found by meaning; if the embedder fails they stay findable by
 *    keyword, and the next job tries again);
 * 3. every cut segment of the session not yet extracted is extracted, its turns' embeddings
 *    written with their `extracted` state.
 * A turn's vector is written with a change of state it goes through anyway: no row version of its own.
 * Nothing is written before step 2's single statement and each step is idempotent, so a
 * job interrupted anywhere is simply run again.
 */
export interface ProcessResult {
  /** Segments cut by this run. */
  segments: number;
  /** Segments extracted into memory by this run. */
  extracted: number;
  /** Messages of the session still buffered after this run, waiting for a boundary. */
  buffered?: number;
}

/**
 * Records the session's next `memory.process` job in the caller's transaction (or as a
 * statement of its own), with `withStatement` if given (see TaskQueue.enqueue).
 */
export function enqueueProcess(
  queue: TaskQueue,
  tx: Sql,
  tenantId: string,
  scope: Scope,
  sessionId: string,
  payload: Record<string, unknown>,
  withStatement?: Parameters<TaskQueue['enqueue']>[2],
) {
  return queue.enqueue(
    tx,
    {
      tenantId,
      type: 'memory.process',
      appId: scope.appId,
      projectId: scope.projectId,
      sessionId,
      chainKey: sessionChain(scope, sessionId),
      object: 'session',
      objectId: sessionId,
      payload,
    },
    withStatement,
  );
}

/** A message of the session not yet extracted, as one job reads it. */
interface OpenMessage extends SegmentRow, Row {
  seq: string | number;
  state: 'queued' | 'buffered' | 'segmented';
  segment_id: string | null;
  task_id: string | null;
  /** No embedding yet. */
  unembedded: boolean;
  /** Queued by this job, or by an earlier job of the session that ended without moving it. */
  arrived: boolean;
}

/** One message's change of state and its new embedding, written by one UPDATE. */
interface MessageChange {
  id: string;
  was: OpenMessage['state'];
  state: OpenMessage['state'];
  segment_id: string | null;
  embedding: string | null;
}

export async function processSession(deps: MemoryDeps, task: TaskRow): Promise<ProcessResult> {
  const ctx: Ctx = { tenantId: task.tenant_id };
  const scope: Scope = { appId: task.app_id ?? 'default', projectId: task.project_id ?? 'default' };
  const sessionId = task.session_id!;
  const flush = task.payload['flush'] === true;

  // The session's open messages this job works on, in one read: the buffer (buffered, and
  // the queued messages of this job or of an earlier job of the session that ended without
  // moving them: those of no unfinished job of the session), and the segments cut but not
  // extracted yet. The messages queued by the session's later jobs (a backlog) are not read;
  // the session's unfinished jobs are few and read once (tasks_chain), not once per message.
  const open = await deps.db.query<OpenMessage>(
    `SELECT ${SEGMENT_COLUMNS}, m.seq, m.state, m.segment_id, m.task_id, m.embedding IS NULL AS unembedded,
            m.state = 'queued' AS arrived
     FROM ${LIVE_MESSAGES} m
     WHERE m.tenant_id = $1 AND m.app_id = $2 AND m.project_id = $3 AND m.session_id = $4 AND m.state <> 'extracted'
       AND (m.state <> 'queued' OR m.task_id = $5 OR m.task_id NOT IN (
             SELECT t.id FROM tasks t WHERE t.tenant_id = $1 AND t.chain_key = $6
               AND t.status IN ('queued', 'processing', 'pending')))
     ORDER BY m.ts, m.seq`,
    [ctx.tenantId, scope.appId, scope.projectId, sessionId, task.id, task.chain_key],
  );
  const buffered = open.filter((m) => m.state === 'buffered' || m.arrived);
  const firstNew = buffered.findIndex((m) => m.task_id === task.id);
  const { segments, tail } = await cutSegments(
    buffered.map(toSegmentMessage),
    deps.rules,
    (buf, next) => deps.extractor.isTopicShift(buf, next),
    { flush, firstNew: firstNew === -1 ? buffered.length : firstNew },
  );
  // The messages left in the buffer get their embedding now, in the UPDATE that moves them;
  // those cut into a segment (now or by an earlier run) get theirs when it is extracted,
  // below, in the UPDATE that marks them extracted. Either way a message is written (and
  // indexed) once per state it rests in. Messages queued by later jobs are left to them.
  const waiting = new Set(tail.map((m) => m.id));
  const vectors = await embedMessages(
    deps,
    buffered.filter((m) => waiting.has(m.id)),
  );

  // Every change in one statement: arrived messages join the buffer or their segment,
  // buffered ones cut into a segment move to it, those left in the buffer get their embedding.
  // The rows are found by primary key (the ids as an array), whatever the statistics: on a
  // store not analysed yet (the embedded store after a burst of adds) a join on the ids
  // alone was planned as a hash of every message of the tenant. A message deleted since
  // the read moves too; no read sees it, and its segment's extraction leaves it out.
  const byId = new Map(open.map((m) => [m.id, m]));
  const changes = new Map<string, MessageChange>();
  const change = (m: OpenMessage): MessageChange => {
    let c = changes.get(m.id);
    if (!c) {
      c = { id: m.id, was: m.state, state: m.state, segment_id: null, embedding: null };
      changes.set(m.id, c);
    }
    return c;
  };
  for (const m of buffered) if (m.arrived) change(m).state = 'buffered';
  const cut = segments.map((seg) => {
    const segmentId = newId();
    const rows = seg.map((s) => byId.get(s.id)!);
    for (const m of rows) Object.assign(change(m), { state: 'segmented', segment_id: segmentId });
    return { segmentId, rows };
  });
  for (const [id, vector] of vectors) change(byId.get(id)!).embedding = vectorText(vector);
  let moved = 0;
  if (changes.size)
    moved = (
      await deps.db.query(
        `UPDATE messages m SET state = x.state, segment_id = coalesce(x.segment_id, m.segment_id),
                embedding = coalesce(x.embedding::vector, m.embedding)
         FROM jsonb_to_recordset($2::jsonb) AS x(id text, was text, state text, segment_id text, embedding text)
         WHERE m.tenant_id = $1 AND m.id = ANY (ARRAY(SELECT jsonb_array_elements($2::jsonb) ->> 'id'))
           AND m.id = x.id AND m.state = x.was
         RETURNING m.id`,
        [ctx.tenantId, JSON.stringify([...changes.values()])],
      )
    ).length;

  let extracted = 0;
  if (moved === changes.size) {
    // The segments left by an earlier run, then the new ones, in the order of their first message.
    const earlier = new Map<string, OpenMessage[]>();
    for (const m of open) {
      if (m.state !== 'segmented') continue;
      const rows = earlier.get(m.segment_id!);
      if (rows) rows.push(m);
      else earlier.set(m.segment_id!, [m]);
    }
    const pending = [...[...earlier].map(([segmentId, rows]) => ({ segmentId, rows })), ...cut].sort(
      (a, b) => firstSeq(a.rows) - firstSeq(b.rows),
    );
    for (const { segmentId, rows } of pending)
      if (await extractSegment(deps, ctx, scope, segmentId, rows)) extracted++;
  } else {
    // A message changed under this job (deleted, or moved by another run): read what is open now.
    const segmentIds = await deps.db.query<{ segment_id: string }>(
      `SELECT segment_id FROM ${LIVE_MESSAGES} m
       WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND session_id = $4 AND state = 'segmented'
       GROUP BY segment_id ORDER BY min(seq)`,
      [ctx.tenantId, scope.appId, scope.projectId, sessionId],
    );
    for (const { segment_id } of segmentIds)
      if (await extractSegment(deps, ctx, scope, segment_id)) extracted++;
  }
  return { segments: segments.length, extracted, buffered: tail.length };
}

const firstSeq = (rows: readonly OpenMessage[]) => Math.min(...rows.map((m) => Number(m.seq)));
