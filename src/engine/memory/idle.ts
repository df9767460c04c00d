import { chainLock } from '../jobs/queue.js';
import { type MemoryDeps, type Scope, sessionChain } from './deps.js';
import { enqueueProcess } from './process.js';
import { LIVE_MESSAGES } from './stored-message.js';

/**
 * Idle sessions: buffered messages wait for an extraction boundary (a day change, a long
 * gap, a topic shift, a flush). A session that received nothing new for `idleMs` is
 * extracted without waiting for one: the sweep enqueues a flush job for it, unless the
 * session already has work queued. Safe to run in every worker at once: the check and
 * the enqueue hold the session's chain lock.
 */
export async function sweepIdleSessions(deps: MemoryDeps, idleMs: number, limit = 100): Promise<number> {
  const idle = await deps.db.query<{
    tenant_id: string;
    app_id: string;
    project_id: string;
    session_id: string;
  }>(
    `SELECT tenant_id, app_id, project_id, session_id FROM ${LIVE_MESSAGES} m
     WHERE state = 'buffered'
     GROUP BY tenant_id, app_id, project_id, session_id
     HAVING max(created_at) < now() - make_interval(secs => $1::float8 / 1000.0)
     LIMIT ${Math.trunc(limit)}`,
    [idleMs],
  );
  let enqueued = 0;
  for (const s of idle) {
    const scope: Scope = { appId: s.app_id, projectId: s.project_id };
    const chainKey = sessionChain(scope, s.session_id);
    const added = await deps.db.transaction(async (tx) => {
      await chainLock(tx, s.tenant_id, chainKey);
      const busy = await tx.query(
        `SELECT 1 FROM tasks WHERE tenant_id = $1 AND chain_key = $2
           AND status IN ('queued', 'processing', 'pending') LIMIT 1`,
        [s.tenant_id, chainKey],
      );
      if (busy.length) return false;
      await enqueueProcess(deps.queue, tx, s.tenant_id, scope, s.session_id, { flush: true, idle: true });
      return true;
    });
    if (added) enqueued++;
  }
  if (enqueued) {
    deps.log.debug('idle sessions queued for extraction', { count: enqueued });
    deps.queue.wake();
  }
  return enqueued;
}
