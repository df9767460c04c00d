import type { Hono } from 'hono';
import { TaskListQuery, TaskStatsQuery } from '../../contract/tasks.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { parseQuery } from '../body.js';

/** GET /api/v2/tasks/stats, /api/v2/tasks, /api/v2/tasks/{task_id}: the caller's tenant only. */
export function taskRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const tenant = (c: { get(k: 'principal'): { tenantId: string } }) => c.get('principal').tenantId;
  app.get('/api/v2/tasks/stats', async (c) =>
    c.json({
      request_id: c.get('requestId'),
      data: await engram.tasks.stats(tenant(c), parseQuery(c, TaskStatsQuery)),
    }),
  );
  app.get('/api/v2/tasks', async (c) =>
    c.json({
      request_id: c.get('requestId'),
      data: await engram.tasks.list(tenant(c), parseQuery(c, TaskListQuery)),
    }),
  );
  app.get('/api/v2/tasks/:task_id', async (c) =>
    c.json({
      request_id: c.get('requestId'),
      data: await engram.tasks.get(tenant(c), c.req.param('task_id')),
    }),
  );
}
