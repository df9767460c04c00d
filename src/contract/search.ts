import { z } from 'zod';
import { checkOwner, MemoryType, QueryText, scope, ToolCall } from './common.js';
import { Filters } from './filters.js';
import { AgentCaseItem, AgentSkillItem, EpisodeItem, ProfileItem } from './records.js';

/** POST /api/v2/memory/search */
export const SearchInput = z
  .object({
    ...scope,
    query: QueryText,
    user_id: z.string().min(1).max(256).nullish(),
    agent_id: z.string().min(1).max(256).nullish(),
    memory_type: MemoryType.nullish().describe('Optional: narrow to one memory type of the owner.'),
    method: z.enum(['keyword', 'vector', 'hybrid', 'agentic']).default('hybrid'),
    top_k: z
      .number()
      .int()
      .default(-1)
      .refine((k) => k === -1 || (k >= 1 && k <= 100), 'top_k must be -1 (engine decides) or 1-100'),
    radius: z.number().min(0).max(1).nullish().describe('Cosine similarity floor for vector hits.'),
    min_score: z.number().min(0).max(1).nullish().describe('Floor on the final (fused) score.'),
    include_profile: z.boolean().default(false),
    with_readable_episode: z.boolean().default(false),
    enable_llm_rerank: z.boolean().default(false),
    filters: Filters.nullish(),
  })
  .strict()
  .superRefine(checkOwner);
export type SearchInput = z.infer<typeof SearchInput>;

export const SearchEpisodeItem = EpisodeItem.extend({
  atomic_facts: z
    .array(
      z.object({
        id: z.string(),
        content: z.string(),
        score: z.number(),
        source_message_ids: z.array(z.string()),
      }),
    )
    .describe(
      "The episode's facts that best match the query, each with its own relevance score, best first: across the answer, its top_k best facts, and at least each episode's best one. For a question the user asks about herself, beyond its best an episode carries only facts resting on her own messages. Every fact of an episode: /api/v2/memory/get.",
    ),
  score: z.number(),
});
export const SearchProfileItem = ProfileItem.extend({ score: z.number().nullable() });
export const SearchAgentCaseItem = AgentCaseItem.extend({ score: z.number() });
export const SearchAgentSkillItem = AgentSkillItem.extend({ score: z.number() });

export const UnprocessedMessage = z.object({
  id: z.string(),
  app_id: z.string(),
  project_id: z.string(),
  session_id: z.string(),
  sender_id: z.string(),
  sender_name: z.string().nullable(),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]),
  timestamp: z.string(),
  tool_calls: z.array(ToolCall).nullable(),
  tool_call_id: z.string().nullable(),
  score: z.number().optional(),
});

export const SearchMessageItem = UnprocessedMessage.extend({ score: z.number() });

export const SearchData = z.object({
  episodes: z.array(SearchEpisodeItem),
  profiles: z.array(SearchProfileItem),
  agent_cases: z.array(SearchAgentCaseItem),
  agent_skills: z.array(SearchAgentSkillItem),
  unprocessed_messages: z.array(UnprocessedMessage),
  messages: z
    .array(SearchMessageItem)
    .describe(
      'Additive: message turns already extracted that match the query, best first (the raw turns beside the facts made of them).',
    ),
  metadata: z
    .object({
      method: z
        .string()
        .describe('The method that actually ran (keyword when hybrid fell back for lack of embeddings).'),
      degraded: z
        .boolean()
        .describe(
          'True when the search ran with less than was asked: agentic without an LLM (hybrid + offline query expansion), or hybrid without the embedder.',
        ),
      degraded_reason: z.string().optional().describe('Why it degraded, when it did.'),
      queries: z.array(z.string()).describe('Every query issued (agentic rounds, expansions).'),
      rounds: z.number().int().optional().describe('Retrieval rounds of an agentic search.'),
      reranked: z
        .boolean()
        .optional()
        .describe('Present when enable_llm_rerank was asked: whether a reranker reordered the hits.'),
      took_ms: z.number().int(),
    })
    .describe('Additive: how the search ran.'),
});
export type SearchData = z.infer<typeof SearchData>;
