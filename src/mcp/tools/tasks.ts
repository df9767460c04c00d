import { TaskItem } from '../../contract/records.js';
import {
  TaskIdInput,
  TaskListData,
  TaskListQuery,
  TaskStatsData,
  TaskStatsQuery,
} from '../../contract/tasks.js';
import { defineTool } from './tool.js';

/** Background task status, statistics and listing (the v2 tasks operations). */

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const getTask = defineTool({
  name: 'get_task',
  title: 'Get task',
  description:
    'Status of a background task by task_id (as returned by remember): queued, pending, ' +
    'processing, success or failed (with the error). Poll it to know when remembered messages ' +
    'have been processed into memory.',
  input: TaskIdInput,
  output: TaskItem,
  errorRoot: 'path',
  annotations: READ_ONLY,
  run: async ({ engram, ctx }, input) => {
    const data = await engram.tasks.get(ctx.tenantId, input.task_id);
    return { data, text: `task ${data.id}: ${data.status}${data.error ? ` (${data.error})` : ''}` };
  },
});

export const getTaskStats = defineTool({
  name: 'get_task_stats',
  title: 'Get task statistics',
  description:
    'Counts of background tasks per status over a time window (default the last 24 hours, at ' +
    'most 31 days; start and end are ISO 8601 date-times).',
  input: TaskStatsQuery,
  output: TaskStatsData,
  errorRoot: 'query',
  annotations: READ_ONLY,
  run: async ({ engram, ctx }, input) => ({ data: await engram.tasks.stats(ctx.tenantId, input) }),
});

export const listTasks = defineTool({
  name: 'list_tasks',
  title: 'List tasks',
  description:
    'Background tasks, newest first, a page at a time; filter by status, session_id or a ' +
    'created_at window (start, end as ISO 8601).',
  input: TaskListQuery,
  output: TaskListData,
  errorRoot: 'query',
  annotations: READ_ONLY,
  run: async ({ engram, ctx }, input) => ({ data: await engram.tasks.list(ctx.tenantId, input) }),
});
