import { z } from 'zod';
import { checkOwner, MemoryType, scope } from './common.js';
import { Condition, Filters, TimeCondition } from './filters.js';
import { AgentCaseItem, AgentSkillItem, EpisodeItem, ProfileItem } from './records.js';

/**
 * POST /api/v2/memory/get. Filters come either as the `filters` tree or as top-level
 * conditions (`session_id`, `sender_id`, `timestamp`); both are ANDed.
 */
export const GetInput = z
  .object({
    ...scope,
    memory_type: MemoryType,
    user_id: z.string().min(1).max(256).nullish(),
    agent_id: z.string().min(1).max(256).nullish(),
    page: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(100).default(20),
    sort_by: z.enum(['timestamp', 'updated_at']).default('timestamp'),
    sort_order: z.enum(['asc', 'desc']).default('desc'),
    with_readable_episode: z.boolean().default(false),
    filters: Filters.nullish(),
    session_id: Condition.optional().describe(
      'Only memories of this session (a value or an operator object).',
    ),
    sender_id: Condition.optional().describe('Only memories involving this sender.'),
    timestamp: TimeCondition.optional().describe(
      'Time condition in Unix ms or ISO 8601, e.g. {"gte": 1767225600000, "lt": "2026-02-01T00:00:00Z"}.',
    ),
  })
  .strict()
  .superRefine(checkOwner);
export type GetInput = z.infer<typeof GetInput>;

export const GetData = z.object({
  episodes: z.array(EpisodeItem),
  profiles: z.array(ProfileItem),
  agent_cases: z.array(AgentCaseItem),
  agent_skills: z.array(AgentSkillItem),
  total_count: z.number().int(),
  count: z.number().int(),
});
export type GetData = z.infer<typeof GetData>;
