import { randomBytes } from 'node:crypto';
import { asArrivingNow } from '../../core/arrival.js';
import type { Db, Row, Sql } from '../../core/db.js';
import { EngramError } from '../../core/errors.js';
import { newTaskId } from '../../core/ids.js';
import type { Logger } from '../../core/log.js';

/**
 * The durable job queue behind every background operation, stored in the `tasks` table so
 * it works the same on both drivers and across any number of stateless processes.
 *
 * - Lifecycle: queued -> processing -> success | failed; a job whose chain (a session)
 *   already has unfinished work waits as `pending` and is promoted, in order, when the
 *   job ahead of it finishes. So one session's work runs one job at a time, in order.
 * - Claiming uses FOR UPDATE SKIP LOCKED with a lease that a running job renews; a job
 *   whose process died is claimed again once its lease lapses (the embedded owner, being
 *   the only process, re-queues them at start). Handlers must be idempotent.
 * - Failures retry with backoff up to max_attempts, then the job fails and its chain moves on.
 *
 * No library: pg-boss and graphile-worker need the `pg` driver and server features
 * (LISTEN/NOTIFY, separate schema) that the embedded PGlite store does not give them.
 */
export interface TaskRow extends Row {
  tenant_id: string;
  id: string;
  task_type: string;
  status: 'queued' | 'processing' | 'pending' | 'success' | 'failed';
  app_id: string | null;
  project_id: string | null;
  session_id: string | null;
  chain_key: string | null;
  object: string | null;
  object_id: string | null;
  payload: Record<string, unknown>;
  result: unknown;
  attempts: number;
  max_attempts: number;
  error: string | null;
  error_code: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

export interface EnqueueSpec {
  tenantId: string;
  type: string;
  appId?: string;
  projectId?: string;
  sessionId?: string;
  /** Jobs sharing a chain key run one at a time in creation order. */
  chainKey?: string;
  object?: string;
  objectId?: string;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
}

export type JobHandler = (task: TaskRow) => Promise<unknown>;

/** A failure that retrying cannot fix. */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    readonly code = 'JobFailed',
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

export interface QueueOptions {
  concurrency: number;
  /**
   * Jobs run inside requests (runOrWait) take the workers' slots, ahead of the workers:
   * at most `concurrency` jobs run at once in this process. For the embedded store, whose
   * one connection every job and request shares.
   */
  sharedSlots?: boolean;
  /** Attempts before a job fails, unless its enqueue says otherwise. */
  maxAttempts?: number;
  leaseMs?: number;
  pollMs?: number;
  /** Backoff before retry n (1-based), in ms. */
  backoffMs?: (attempt: number) => number;
  /** Told how each run of a job ended and how long it took (metrics). */
  observe?: (type: string, outcome: 'success' | 'retry' | 'failed', seconds: number) => void;
}

const chainLockKey = (tenantId: string, chainKey: string) => JSON.stringify([tenantId, chainKey]);

/** The lock that orders a chain's enqueues and finishes (engram_enqueue and engram_finish take the same). */
export const chainLock = (tx: Sql, tenantId: string, chainKey: string) =>
  tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [chainLockKey(tenantId, chainKey)]);

export class TaskQueue {
  readonly workerId = `w_${process.pid}_${randomBytes(4).toString('hex')}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly backoffMs: (attempt: number) => number;
  private running = 0;
  /** Requests waiting for a slot to run their session's job (sharedSlots). */
  private readonly slotWaiters: (() => void)[] = [];
  /** Slots taken by requests that have not launched their job yet (sharedSlots). */
  private reserved = 0;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private polling = false;
  private readonly inflight = new Set<Promise<void>>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly sweeps: { everyMs: number; run: () => Promise<void>; timer?: NodeJS.Timeout }[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: QueueOptions,
  ) {
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 500;
    this.backoffMs = opts.backoffMs ?? ((n) => Math.min(60_000, 500 * 2 ** (n - 1)));
  }

  register(type: string, handler: JobHandler): void {
    this.handlers.set(type, handler);
  }

  /**
   * Runs `run` every `everyMs` while this process works the queue: sweeps that find work
   * nobody asked for (idle sessions) and enqueue it. Every worker may sweep; a sweep must
   * be safe to run concurrently with itself in other processes.
   */
  every(everyMs: number, run: () => Promise<void>): void {
    const sweep: (typeof this.sweeps)[number] = { everyMs, run };
    this.sweeps.push(sweep);
    if (this.started) this.scheduleSweep(sweep);
  }

  private scheduleSweep(sweep: (typeof this.sweeps)[number]): void {
    sweep.timer = setTimeout(() => {
      if (!this.started) return;
      const p: Promise<void> = asArrivingNow(sweep.run)
        .catch((err) => this.log.warn('sweep failed', { err }))
        .finally(() => {
          this.inflight.delete(p);
          if (this.started) this.scheduleSweep(sweep);
        });
      this.inflight.add(p);
    }, sweep.everyMs);
    sweep.timer.unref();
  }

  /**
   * Records a job inside the caller's transaction; it becomes visible when that commits.
   * One statement (engram_enqueue). `with`: a statement that must commit with the job,
   * given the job's id, sent with it in the same round trip as a data-modifying WITH
   * clause (its parameters are numbered from $1; the job's follow them).
   */
  async enqueue(
    q: Sql,
    spec: EnqueueSpec,
    withStatement?: (taskId: string) => { sql: string; params: unknown[] },
  ): Promise<{ id: string; status: 'queued' | 'pending' }> {
    const id = newTaskId();
    const w = withStatement?.(id);
    const params = [
      ...(w?.params ?? []),
      spec.tenantId,
      id,
      spec.type,
      spec.appId ?? null,
      spec.projectId ?? null,
      spec.sessionId ?? null,
      spec.chainKey ?? null,
      spec.chainKey ? chainLockKey(spec.tenantId, spec.chainKey) : null,
      spec.object ?? null,
      spec.objectId ?? null,
      JSON.stringify(spec.payload ?? {}),
      spec.maxAttempts ?? this.opts.maxAttempts ?? 5,
    ];
    const n = w?.params.length ?? 0;
    const args = Array.from({ length: 12 }, (_, k) => `$${n + k + 1}`);
    args[10] += '::jsonb';
    const rows = await q.query<{ status: 'queued' | 'pending' }>(
      `${w ? `WITH w AS (${w.sql}) ` : ''}SELECT engram_enqueue(${args.join(', ')}) AS status`,
      params,
    );
    return { id, status: rows[0]!.status };
  }

  /** Starts polling for work. `recoverOrphans`: this process is the only worker (embedded). */
  async start(recoverOrphans: boolean): Promise<void> {
    if (recoverOrphans) {
      const rows = await this.db.query(
        `UPDATE tasks SET status = 'queued', locked_by = NULL, locked_until = NULL, updated_at = now()
         WHERE status = 'processing' RETURNING id`,
      );
      if (rows.length) this.log.info('re-queued interrupted tasks', { count: rows.length });
    }
    this.started = true;
    for (const sweep of this.sweeps) this.scheduleSweep(sweep);
    this.wake();
  }

  /** Stops claiming new work and waits for running jobs to finish. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const sweep of this.sweeps) clearTimeout(sweep.timer);
    await Promise.allSettled([...this.inflight]);
  }

  /** Polls now instead of at the next tick (after an enqueue has committed). */
  wake(): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void asArrivingNow(() => this.poll()), 0);
  }

  private async poll(): Promise<void> {
    if (!this.started || this.polling) return;
    this.polling = true;
    try {
      while (
        this.started &&
        this.running + this.reserved < this.opts.concurrency &&
        !this.slotWaiters.length
      ) {
        const task = await this.claim();
        if (!task) break;
        // a worker's job is work arriving at its claim (a request's job keeps the request's)
        asArrivingNow(() => this.launch(task));
      }
    } catch (err) {
      this.log.warn('task poll failed', { err });
    } finally {
      this.polling = false;
      if (this.started) {
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => void asArrivingNow(() => this.poll()), this.pollMs);
      }
    }
  }

  /**
   * Claims the oldest runnable job, or with `own` the job itself or, while it waits behind
   * its chain, the runnable job at the head of that chain (a session's earlier work).
   * started_at and finished_at are clock_timestamp(), not now(): now() is the time the
   * statement's transaction began, which can precede by a round trip the snapshot that
   * found the job runnable (so a job could seem to start before its predecessor finished).
   */
  private async claim(own?: { tenantId: string; id: string }): Promise<TaskRow | undefined> {
    const params: unknown[] = [this.workerId, this.leaseMs];
    let pick = `SELECT tenant_id, id FROM tasks
      WHERE (status = 'queued' AND run_after <= now()) OR (status = 'processing' AND locked_until < now())
      ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED`;
    if (own) {
      params.push(own.tenantId, own.id);
      pick = `SELECT tenant_id, id FROM tasks
        WHERE tenant_id = $3 AND status = 'queued' AND run_after <= now()
          AND (id = $4 OR chain_key = (SELECT chain_key FROM tasks WHERE tenant_id = $3 AND id = $4))
        ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED`;
    }
    const rows = await this.db.query<TaskRow>(
      `UPDATE tasks SET status = 'processing', attempts = attempts + 1, locked_by = $1,
              locked_until = now() + make_interval(secs => $2::int / 1000.0),
              started_at = coalesce(started_at, clock_timestamp()), updated_at = now()
       WHERE (tenant_id, id) IN (${pick})
       RETURNING *`,
      params,
    );
    return rows[0];
  }

  private launch(task: TaskRow): Promise<void> {
    this.running++;
    const p = this.execute(task).finally(() => {
      this.running--;
      this.inflight.delete(p);
      // a request waiting for this slot gets it before the workers poll again
      if (!this.handOver()) this.wake();
    });
    this.inflight.add(p);
    return p;
  }

  private async execute(task: TaskRow): Promise<void> {
    const handler = this.handlers.get(task.task_type);
    const started = performance.now();
    const observe = (outcome: 'success' | 'retry' | 'failed') =>
      this.opts.observe?.(task.task_type, outcome, (performance.now() - started) / 1000);
    const heartbeat = setInterval(
      () =>
        void this.db
          .query(
            `UPDATE tasks SET locked_until = now() + make_interval(secs => $3::int / 1000.0)
             WHERE tenant_id = $1 AND id = $2 AND locked_by = $4`,
            [task.tenant_id, task.id, this.leaseMs, this.workerId],
          )
          .catch(() => {}),
      Math.max(1000, this.leaseMs / 3),
    );
    try {
      if (!handler) throw new PermanentJobError(`no handler for task type ${task.task_type}`);
      const result = await handler(task);
      await this.finish(task, 'success', { result });
      observe('success');
    } catch (err) {
      const permanent = err instanceof PermanentJobError || (err instanceof EngramError && err.status < 500);
      const message = err instanceof Error ? err.message : String(err);
      observe(!permanent && task.attempts < task.max_attempts ? 'retry' : 'failed');
      if (!permanent && task.attempts < task.max_attempts) {
        this.log.warn('task failed, will retry', {
          task: task.id,
          type: task.task_type,
          attempt: task.attempts,
          err,
        });
        await this.db
          .query(
            `UPDATE tasks SET status = 'queued', locked_by = NULL, locked_until = NULL, error = $3,
                    run_after = now() + make_interval(secs => $4::int / 1000.0), updated_at = now()
             WHERE tenant_id = $1 AND id = $2 AND locked_by = $5`,
            [task.tenant_id, task.id, message.slice(0, 2000), this.backoffMs(task.attempts), this.workerId],
          )
          .catch((e) => this.log.error('could not re-queue task', { task: task.id, err: e }));
      } else {
        this.log.error('task failed', { task: task.id, type: task.task_type, err });
        const code =
          err instanceof PermanentJobError ? err.code : err instanceof EngramError ? err.code : 'JobFailed';
        await this.finish(task, 'failed', { error: message.slice(0, 2000), errorCode: code }).catch((e) =>
          this.log.error('could not record task failure', { task: task.id, err: e }),
        );
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Records the job's outcome and moves its chain on, in one statement (engram_finish). */
  private async finish(
    task: TaskRow,
    status: 'success' | 'failed',
    out: { result?: unknown; error?: string; errorCode?: string },
  ): Promise<void> {
    await this.db.query('SELECT engram_finish($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9) AS done', [
      task.tenant_id,
      task.id,
      status,
      out.result === undefined ? null : JSON.stringify(out.result),
      status === 'failed' ? (out.error ?? null) : null,
      out.errorCode ?? null,
      this.workerId,
      task.chain_key,
      task.chain_key ? chainLockKey(task.tenant_id, task.chain_key) : null,
    ]);
    for (const notify of this.waiters.get(task.id) ?? []) notify();
  }

  /**
   * Runs a job in this process now, with the jobs of its chain that must run before it (a
   * synchronous add runs its own session's queued work, not everyone's: its latency does
   * not depend on the rest of the queue). A chain job another worker holds is waited for
   * (up to timeoutMs). Returns the job's row as it stands at the end.
   */
  async runOrWait(tenantId: string, id: string, timeoutMs: number): Promise<TaskRow | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const release = await this.slot();
      let claimed: TaskRow | undefined;
      try {
        claimed = await this.claim({ tenantId, id });
      } catch (err) {
        release();
        throw err;
      }
      if (claimed) {
        const run = this.launch(claimed);
        release();
        await run;
        if (claimed.id !== id && Date.now() < deadline) continue;
      } else release();
      const row = await this.get(tenantId, id);
      if (!row || row.status === 'success' || row.status === 'failed') return row;
      const left = deadline - Date.now();
      if (left <= 0) return row;
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(id) ?? new Set();
        this.waiters.set(id, set);
        const done = () => {
          clearTimeout(t);
          set.delete(done);
          if (!set.size) this.waiters.delete(id);
          resolve();
        };
        const t = setTimeout(done, Math.min(left, 200));
        set.add(done);
      });
    }
  }

  /**
   * With sharedSlots: reserves one of the `concurrency` slots for a job run in a request,
   * waiting for it ahead of the workers. Call the answer once the job is launched (or
   * none was claimed).
   */
  private async slot(): Promise<() => void> {
    if (!this.opts.sharedSlots) return () => {};
    if (this.running + this.reserved < this.opts.concurrency) this.reserved++;
    else await new Promise<void>((resolve) => this.slotWaiters.push(resolve)); // handed over reserved
    return () => {
      this.reserved--;
      if (!this.handOver()) this.wake();
    };
  }

  /** Gives a free slot to the first request waiting for one (already reserved for it). */
  private handOver(): boolean {
    if (this.running + this.reserved >= this.opts.concurrency) return false;
    const waiter = this.slotWaiters.shift();
    if (!waiter) return false;
    this.reserved++;
    waiter();
    return true;
  }

  /** Unfinished jobs per state, over every tenant (metrics). */
  async depth(): Promise<Record<string, number>> {
    const rows = await this.db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM tasks WHERE status IN ('queued', 'processing', 'pending') GROUP BY status`,
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  async get(tenantId: string, id: string): Promise<TaskRow | undefined> {
    const rows = await this.db.query<TaskRow>('SELECT * FROM tasks WHERE tenant_id = $1 AND id = $2', [
      tenantId,
      id,
    ]);
    return rows[0];
  }

  /** Runs every runnable job to completion (tests, CLI). */
  async drain(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const task = await this.claim();
      if (task) {
        await this.launch(task);
        continue;
      }
      if (this.inflight.size) {
        await Promise.race([...this.inflight]);
        continue;
      }
      const left = await this.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tasks WHERE status IN ('queued', 'processing', 'pending') AND run_after <= now()`,
      );
      if (!left[0]?.n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('drain timed out');
  }
}
