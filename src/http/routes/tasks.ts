import type { Hono } from 'hono';
import { TaskItem } from '../../contract/records.js';
import {
  TaskIdInput,
  TaskListData,
  TaskListQuery,
  TaskStatsData,
  TaskStatsQuery,
} from '../../contract/tasks.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { operation } from './operation.js';

/** GET /api/v2/tasks/stats, /api/v2/tasks, /api/v2/tasks/{task_id}: the caller's tenant only. */
export function taskRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const tenant = (c: { get(k: 'principal'): { tenantId: string } }) => c.get('principal').tenantId;
  const get = { method: 'get', tag: 'Tasks' } as const;
  operation(
    app,
    {
      ...get,
      path: '/api/v2/tasks/stats',
      operationId: 'getTaskStats',
      summary: 'Task counts per status over a time window',
      query: TaskStatsQuery,
      data: TaskStatsData,
    },
    async (c, { query }) => ({ data: await engram.tasks.stats(tenant(c), query) }),
  );
  operation(
    app,
    {
      ...get,
      path: '/api/v2/tasks',
      operationId: 'listTasks',
      summary: 'Background tasks, newest first, a page at a time',
      query: TaskListQuery,
      data: TaskListData,
    },
    async (c, { query }) => ({ data: await engram.tasks.list(tenant(c), query) }),
  );
  operation(
    app,
    {
      ...get,
      path: '/api/v2/tasks/:task_id',
      operationId: 'getTaskStatus',
      summary: 'Status of one background task',
      params: TaskIdInput,
      data: TaskItem,
    },
    async (c, { params }) => ({ data: await engram.tasks.get(tenant(c), params.task_id) }),
  );
}
