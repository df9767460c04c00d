import { z } from 'zod';
import { TaskItem } from './records.js';
import { IsoInstant } from './time.js';

const isoInput = IsoInstant.optional();

/** GET /api/v2/tasks/stats?start=&end= : counts per status over a clamped window. */
export const TaskStatsQuery = z.object({ start: isoInput, end: isoInput });
export type TaskStatsQuery = z.infer<typeof TaskStatsQuery>;
export const TaskStatsData = z.object({
  by_status: z.object({
    queued: z.number().int(),
    processing: z.number().int(),
    pending: z.number().int(),
    success: z.number().int(),
    failed: z.number().int(),
  }),
  start: z.string(),
  end: z.string(),
  total: z.number().int(),
});
export type TaskStatsData = z.infer<typeof TaskStatsData>;

/** GET /api/v2/tasks : a page of the tenant's tasks, newest first. */
export const TaskListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(['queued', 'processing', 'pending', 'success', 'failed']).optional(),
  session_id: z.string().min(1).max(128).optional(),
  start: isoInput,
  end: isoInput,
});
export type TaskListQuery = z.infer<typeof TaskListQuery>;
export const TaskListData = z.object({
  items: z.array(TaskItem),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type TaskListData = z.infer<typeof TaskListData>;

export const TaskIdInput = z.object({ task_id: z.string().min(1).max(128) });
