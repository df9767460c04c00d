import { z } from 'zod';

/**
 * Memory records as get, search and update return them. Field names follow the published
 * OpenAPI; `source_message_ids` (the messages a memory was extracted from) is additive.
 */
const isoDate = z.string().describe('ISO 8601 date-time');
const sourceIds = z.array(z.string()).describe('Ids of the messages this memory was extracted from.');

export const AtomicFactItem = z.object({
  id: z.string(),
  content: z.string(),
  source_message_ids: sourceIds,
});

export const EpisodeItem = z.object({
  id: z.string(),
  app_id: z.string(),
  project_id: z.string(),
  user_id: z.string().nullable(),
  session_id: z.string().nullable(),
  timestamp: isoDate,
  sender_ids: z.array(z.string()),
  summary: z.string(),
  subject: z.string(),
  episode: z.string(),
  readable_episode: z.string().nullable(),
  type: z.string().describe('"Conversation" or "AgentConversation"'),
  atomic_facts: z.array(AtomicFactItem),
  tags: z.array(z.string()),
  edited_at: isoDate.nullable().optional(),
  reflect_state: z.enum(['pending', 'done']).nullable().optional(),
  source_message_ids: sourceIds,
});
export type EpisodeItem = z.infer<typeof EpisodeItem>;

export const ProfileItemEntry = z
  .object({
    item_id: z.string(),
    category: z.string().optional(),
    trait: z.string().optional(),
    description: z.string(),
    source_message_ids: sourceIds,
    updated_at: isoDate,
  })
  .loose();

export const ProfileData = z
  .object({
    summary: z.string(),
    explicit_info: z.array(ProfileItemEntry),
    implicit_traits: z.array(ProfileItemEntry),
  })
  .loose();
export type ProfileData = z.infer<typeof ProfileData>;

export const ProfileItem = z.object({
  id: z.string(),
  app_id: z.string(),
  project_id: z.string(),
  user_id: z.string(),
  profile_data: ProfileData,
  created_at: isoDate.nullable(),
  updated_at: isoDate.nullable(),
  source_message_ids: sourceIds,
});
export type ProfileItem = z.infer<typeof ProfileItem>;

export const AgentCaseItem = z.object({
  id: z.string(),
  app_id: z.string(),
  project_id: z.string(),
  agent_id: z.string(),
  session_id: z.string(),
  task_intent: z.string(),
  approach: z.string(),
  quality_score: z.number(),
  key_insight: z.string().nullable(),
  timestamp: isoDate,
  source_message_ids: sourceIds,
});
export type AgentCaseItem = z.infer<typeof AgentCaseItem>;

export const AgentSkillItem = z.object({
  id: z.string(),
  app_id: z.string(),
  project_id: z.string(),
  agent_id: z.string(),
  name: z.string(),
  description: z.string(),
  content: z.string(),
  confidence: z.number(),
  maturity_score: z.number(),
  source_case_ids: z.array(z.string()),
  created_at: isoDate.nullable(),
  updated_at: isoDate.nullable(),
  source_message_ids: sourceIds,
});
export type AgentSkillItem = z.infer<typeof AgentSkillItem>;

export const TaskItem = z.object({
  id: z.string(),
  status: z.enum(['queued', 'processing', 'pending', 'success', 'failed']),
  task_type: z.string(),
  object: z.string().optional(),
  object_id: z.string().optional(),
  created_at: isoDate,
  finished_at: isoDate.optional(),
  error: z.string().optional(),
  error_code: z.string().optional(),
  /** Work done so far, for tasks that report it (document ingest: topics done / total). */
  progress: z.object({ done: z.number().int(), total: z.number().int() }).optional(),
});
export type TaskItem = z.infer<typeof TaskItem>;
