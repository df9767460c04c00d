import { TaskItem } from '../../contract/records.js';
import {
  TaskIdInput,
  TaskListData,
  TaskListQuery,
  TaskStatsData,
  TaskStatsQuery,
} from '../../contract/tasks.js';
import { renderTask } from '../render-task.js';
import { defineTool } from './tool.js';

/** Background task status, statistics and listing (the v2 tasks operations). */

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const getTask = defineTool({
  name: 'get_task',
  title: 'Get task',
  description:
    'Status of a background task by task_id (as returned by remember): queued, pending, ' +
    'processing, success or failed (with the error). Once it succeeded, the text says how many ' +
    'segments were extracted into memory and how many messages of the session are still ' +
    'buffered, waiting for an extraction boundary (flush_session extracts them at once).',
  input: TaskIdInput,
  output: TaskItem,
  errorRoot: 'path',
  annotations: READ_ONLY,
  run: async ({ engram, ctx }, input) => {
    const detail = await engram.tasks.detail(ctx.tenantId, input.task_id);
    return { data: detail.item, text: renderTask(detail, engram.config.idleExtractMinutes) };
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
