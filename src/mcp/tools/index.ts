import { deleteEpisodes, deleteMemories, flushSession, getMemories, updateEpisode } from './memory.js';
import { rate } from './rate.js';
import { recall } from './recall.js';
import { remember } from './remember.js';
import { getTask, getTaskStats, listTasks } from './tasks.js';
import type { AnyTool } from './tool.js';

/** Every MCP tool, in the order tools/list shows them (the friendly three first). */
export const TOOLS: AnyTool[] = [
  remember,
  recall,
  rate,
  getMemories,
  flushSession,
  updateEpisode,
  deleteMemories,
  deleteEpisodes,
  getTask,
  getTaskStats,
  listTasks,
];
