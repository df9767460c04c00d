import type { Sql } from '../../core/db.js';
import { newId } from '../../core/ids.js';
import type { TaskQueue, TaskRow } from '../jobs/queue.js';
import { cutSegments } from './boundary.js';
import { type Ctx, type MemoryDeps, type Scope, sessionChain } from './deps.js';
import { extractSegment } from './extract.js';
import { embedSessionMessages, sessionMessages, toSegmentMessage } from './messages.js';
import { LIVE_MESSAGES } from './stored-message.js';

/**
 * The `memory.process` job, one per add or flush, run in order per session:
 * 1. the messages it brought move from `queued` into the session buffer, and the session's
 *    messages without an embedding get one (so a turn is found by meaning before and after
 *    extraction; if the embedder fails they stay findable by keyword);
 * 2. the buffer is cut at extraction boundaries (everything, on flush);
 * 3. every cut segment of the session not yet extracted is extracted.
 * Each step is idempotent, so a job interrupted anywhere is simply run again.
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

export async function processSession(deps: MemoryDeps, task: TaskRow): Promise<ProcessResult> {
  const ctx: Ctx = { tenantId: task.tenant_id };
  const scope: Scope = { appId: task.app_id ?? 'default', projectId: task.project_id ?? 'default' };
  const sessionId = task.session_id!;
  const flush = task.payload['flush'] === true;

  // This job's messages, and those of an earlier job of the session that ended without
  // moving them (looked up by the job's key, not among every finished job of the tenant).
  await deps.db.query(
    `UPDATE messages m SET state = 'buffered'
     WHERE m.tenant_id = $1 AND m.app_id = $2 AND m.project_id = $3 AND m.session_id = $4 AND m.state = 'queued'
       AND m.deleted_at IS NULL
       AND (m.task_id = $5 OR EXISTS (SELECT 1 FROM tasks t WHERE t.tenant_id = m.tenant_id AND t.id = m.task_id
                                        AND t.status IN ('success', 'failed')))`,
    [ctx.tenantId, scope.appId, scope.projectId, sessionId, task.id],
  );

  await embedSessionMessages(deps, ctx.tenantId, scope, sessionId);

  const buffered = await sessionMessages(deps.db, ctx.tenantId, scope, sessionId, 'buffered');
  const firstNew = buffered.findIndex((m) => m.task_id === task.id);
  const { segments, tail } = await cutSegments(
    buffered.map(toSegmentMessage),
    deps.rules,
    (buf, next) => deps.extractor.isTopicShift(buf, next),
    { flush, firstNew: firstNew === -1 ? buffered.length : firstNew },
  );
  if (segments.length)
    await deps.db.query(
      `UPDATE messages m SET state = 'segmented', segment_id = x.segment_id
       FROM jsonb_to_recordset($2::jsonb) AS x(id text, segment_id text)
       WHERE m.tenant_id = $1 AND m.id = x.id AND m.state = 'buffered'`,
      [
        ctx.tenantId,
        JSON.stringify(
          segments.flatMap((seg) => {
            const segmentId = newId();
            return seg.map((m) => ({ id: m.id, segment_id: segmentId }));
          }),
        ),
      ],
    );

  const open = await deps.db.query<{ segment_id: string }>(
    `SELECT segment_id FROM ${LIVE_MESSAGES} m
     WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND session_id = $4 AND state = 'segmented'
     GROUP BY segment_id ORDER BY min(seq)`,
    [ctx.tenantId, scope.appId, scope.projectId, sessionId],
  );
  let extracted = 0;
  for (const { segment_id } of open) if (await extractSegment(deps, ctx, scope, segment_id)) extracted++;
  return { segments: segments.length, extracted, buffered: tail.length };
}
