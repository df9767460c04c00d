import { addDocument, getTopic, replaceTopicTags, searchKnowledge } from './knowledge.js';
import { deleteEpisodes, deleteMemories, flushSession, getMemories, updateEpisode } from './memory.js';
import { rate } from './rate.js';
import { recall } from './recall.js';
import { remember } from './remember.js';
import { editProfile, retagMemories, tagMemories, untagMemories } from './tags.js';
import { getTask, getTaskStats, listTasks } from './tasks.js';
import type { AnyTool } from './tool.js';

/** What an agent needs day to day, in the order tools/list shows them (the friendly three first). */
export const AGENT_TOOLS: AnyTool[] = [remember, recall, rate, getMemories, flushSession, getTask];

/**
 * Corrections, deletions, queue inspection and knowledge bases: listed only with
 * ENGRAM_MCP_TOOLS=all (recall searches a knowledge base in the default set too).
 */
export const ADMIN_TOOLS: AnyTool[] = [
  updateEpisode,
  deleteMemories,
  deleteEpisodes,
  tagMemories,
  untagMemories,
  retagMemories,
  editProfile,
  getTaskStats,
  listTasks,
  searchKnowledge,
  getTopic,
  addDocument,
  replaceTopicTags,
];

export type ToolSet = 'agent' | 'all';

const SETS: Record<ToolSet, AnyTool[]> = { agent: AGENT_TOOLS, all: [...AGENT_TOOLS, ...ADMIN_TOOLS] };
const BY_NAME: Record<ToolSet, Map<string, AnyTool>> = {
  agent: new Map(SETS.agent.map((t) => [t.name, t])),
  all: new Map(SETS.all.map((t) => [t.name, t])),
};

/** The tools one MCP server offers. */
export const toolsFor = (set: ToolSet): AnyTool[] => SETS[set];
export const toolsByName = (set: ToolSet): Map<string, AnyTool> => BY_NAME[set];
