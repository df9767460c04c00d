import { z } from 'zod';
import { checkOwner } from '../../contract/common.js';
import { KbSearchHit, KbSearchInput } from '../../contract/kb.js';
import { SearchData, SearchInput } from '../../contract/search.js';
import type { Ctx } from '../../engine/memory/deps.js';
import { bestFacts } from '../../engine/search/best-facts.js';
import { topKOf } from '../../engine/search/service.js';
import type { Engram } from '../../engram.js';
import { type Rendered, renderRecall } from '../render.js';
import { defineTool } from './tool.js';

/** The search arguments of POST /api/v2/memory/search plus the size of the answer. */
export const RecallInput = z
  .object({
    ...SearchInput.shape,
    max_tokens: z
      .number()
      .int()
      .min(100)
      .max(20_000)
      .default(1500)
      .describe('Upper bound on the size of the text answer, in tokens (characters / 4).'),
    kb_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe(
        'Also search this knowledge base for the query; its topics are ranked in the answer with the memories.',
      ),
  })
  .strict()
  .superRefine(checkOwner);
export type RecallInput = z.infer<typeof RecallInput>;

export const RecallData = SearchData.extend({
  topics: z.array(KbSearchHit).optional().describe('Knowledge-base topics, when kb_id was given.'),
  context: z.string().describe('The compact answer: what to paste into context.'),
  context_tokens: z.number().int().describe('Size of context in tokens (characters / 4).'),
  omitted: z.number().int().describe('Hits left out of context to stay within max_tokens.'),
});
export type RecallData = z.infer<typeof RecallData>;

/** Runs a search and renders it within the token budget. */
export async function recallFor(
  engram: Engram,
  ctx: Ctx,
  input: RecallInput,
): Promise<{ data: SearchData & { topics?: KbSearchHit[] }; rendered: Rendered }> {
  const { max_tokens, kb_id, ...search } = input;
  const method = search.method === 'agentic' ? 'hybrid' : search.method;
  const [memories, knowledge] = await Promise.all([
    // Every fact of each episode: the context ranks them with the turns (context.ts).
    engram.search.search(ctx, search, { allFacts: true }),
    kb_id
      ? engram.kb.search(
          ctx,
          kb_id,
          KbSearchInput.parse({ query: search.query, method, top_k: search.top_k > 0 ? search.top_k : 10 }),
        )
      : undefined,
  ]);
  const all = knowledge ? { ...memories, topics: knowledge.hits } : memories;
  // The context ranks every fact; the structured hits carry the answer's best, as on REST.
  const data = { ...all, episodes: bestFacts(all.episodes, topKOf(search.top_k)) };
  return { data, rendered: renderRecall(input.query, all, max_tokens) };
}

export const recall = defineTool({
  name: 'recall',
  title: 'Recall',
  description:
    'Search long-term memory for what is relevant to a query and get a compact answer to paste ' +
    'into context, plus the structured hits. Give the query and exactly one owner: user_id ' +
    '(episodes and profile of a user) or agent_id (cases and skills of an agent); optionally ' +
    'memory_type, method (keyword, vector, hybrid (default), agentic), top_k, filters on ' +
    'session_id/sender_id/timestamp, include_profile, and max_tokens for the answer size. ' +
    'Memory ids in the answer can be rated with rate. Give kb_id to search a knowledge base too.',
  input: RecallInput,
  output: RecallData,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, input) => {
    const { data, rendered } = await recallFor(engram, ctx, input);
    return {
      data: { ...data, context: rendered.text, context_tokens: rendered.tokens, omitted: rendered.omitted },
      text: rendered.text,
    };
  },
});
