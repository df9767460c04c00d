import { FeedbackData, FeedbackInput } from '../../contract/memory-write.js';
import { defineTool } from './tool.js';

/** rate: a feedback signal about one memory (POST /api/v2/memory/feedback). */
export const rate = defineTool({
  name: 'rate',
  title: 'Rate a memory',
  description:
    'Tell engram whether a memory you used was right. Give memory_type and memory_id (from ' +
    'recall or get_memories; for a profile also the item_id of the fact), rating "positive" or ' +
    '"negative", and for a negative rating a reason (hallucination, outdated, wrong_subject, ' +
    'wrong_time, redundant, privacy, style, other), a short note and a suggested correction. ' +
    'Stores the signal only; it does not change the memory (use update_episode for that).',
  input: FeedbackInput,
  output: FeedbackData,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async ({ engram, ctx }, input) => {
    const data = await engram.memory.feedback(ctx, input);
    return {
      data,
      text: `Stored ${input.rating} feedback ${data.id} on ${input.memory_type} ${input.memory_id}.`,
    };
  },
});
