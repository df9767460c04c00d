import type { TaskItem } from '../contract/records.js';
import type { TaskListData, TaskListQuery, TaskStatsData, TaskStatsQuery } from '../contract/tasks.js';
import type { Db } from '../core/db.js';
import { notFound } from '../core/errors.js';
import { iso, isoRequired } from '../core/time.js';
import type { TaskRow } from './jobs/queue.js';

const STATUSES = ['queued', 'processing', 'pending', 'success', 'failed'] as const;
const DAY = 86_400_000;
/** The stats window: 24 h by default, at most 31 days, never in the future. */
const DEFAULT_WINDOW = DAY;
const MAX_WINDOW = 31 * DAY;

/** Task status, statistics and listing for one tenant. */
export class TaskService {
  constructor(private readonly db: Db) {}

  async get(tenantId: string, id: string): Promise<TaskItem> {
    return taskItem(await this.row(tenantId, id));
  }

  /** The task with what its work did so far: its session and the result it recorded. */
  async detail(
    tenantId: string,
    id: string,
  ): Promise<{
    item: TaskItem;
    sessionId: string | undefined;
    payload: Record<string, unknown>;
    result: unknown;
  }> {
    const row = await this.row(tenantId, id);
    return {
      item: taskItem(row),
      sessionId: row.session_id ?? undefined,
      payload: row.payload,
      result: row.result,
    };
  }

  private async row(tenantId: string, id: string): Promise<TaskRow> {
    const rows = await this.db.query<TaskRow>('SELECT * FROM tasks WHERE tenant_id = $1 AND id = $2', [
      tenantId,
      id,
    ]);
    if (!rows[0]) throw notFound(`task ${id} not found`);
    return rows[0];
  }

  async stats(tenantId: string, q: TaskStatsQuery): Promise<TaskStatsData> {
    const now = Date.now();
    let end = q.end ? Math.min(Date.parse(q.end), now) : now;
    let start = q.start ? Date.parse(q.start) : end - DEFAULT_WINDOW;
    if (start > end) [start, end] = [end, start];
    if (end - start > MAX_WINDOW) start = end - MAX_WINDOW;
    const rows = await this.db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM tasks
       WHERE tenant_id = $1 AND created_at >= $2::timestamptz AND created_at <= $3::timestamptz GROUP BY status`,
      [tenantId, new Date(start).toISOString(), new Date(end).toISOString()],
    );
    const by_status = Object.fromEntries(STATUSES.map((s) => [s, 0])) as TaskStatsData['by_status'];
    for (const r of rows) by_status[r.status as keyof typeof by_status] = Number(r.n);
    return {
      by_status,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      total: Object.values(by_status).reduce((a, b) => a + b, 0),
    };
  }

  async list(tenantId: string, q: TaskListQuery): Promise<TaskListData> {
    const params: unknown[] = [
      tenantId,
      q.status ?? null,
      q.session_id ?? null,
      q.start ?? null,
      q.end ?? null,
    ];
    const where = `tenant_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR session_id = $3)
      AND ($4::timestamptz IS NULL OR created_at >= $4::timestamptz) AND ($5::timestamptz IS NULL OR created_at <= $5::timestamptz)`;
    const [rows, total] = await Promise.all([
      this.db.query<TaskRow>(
        `SELECT * FROM tasks WHERE ${where} ORDER BY seq DESC LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
        params,
      ),
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE ${where}`, params),
    ]);
    return { items: rows.map(taskItem), page: q.page, page_size: q.page_size, total: total[0]?.n ?? 0 };
  }
}

export function taskItem(r: TaskRow): TaskItem {
  const item: TaskItem = {
    id: r.id,
    status: r.status,
    task_type: r.task_type,
    created_at: isoRequired(r.created_at),
  };
  if (r.object) item.object = r.object;
  if (r.object_id) item.object_id = r.object_id;
  const finished = iso(r.finished_at);
  if (finished) item.finished_at = finished;
  if (r.status === 'failed' && r.error) item.error = r.error;
  if (r.status === 'failed' && r.error_code) item.error_code = r.error_code;
  const progress = (r.result as { progress?: TaskItem['progress'] } | null)?.progress;
  if (progress) item.progress = progress;
  return item;
}
