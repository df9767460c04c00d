import { z } from 'zod';
import { MemoryId } from './common.js';

/**
 * POST /api/v2/memory/tag/bind, /tag/unbind, /tag/replace. Tags are scoped by the memory
 * ids (no app or project); episodes are the memories that carry them. An unknown,
 * deleted or other tenant's id is not an error: it counts as requested, not matched.
 */
export const MAX_TAGS_PER_MEMORY = 100;
const Tag = z.string().min(1).max(32);
const fields = {
  memory_type: z.literal('episode', { error: 'only "episode" memories carry tags' }),
  memory_ids: z.array(MemoryId).min(1).max(200).describe('The memories, by id (1-200).'),
};

export const TagBindInput = z
  .object({
    ...fields,
    tags: z.array(Tag).min(1).max(100).describe('Tags to add (1-100, 1-32 characters each).'),
  })
  .strict();
export type TagBindInput = z.infer<typeof TagBindInput>;

export const TagUnbindInput = z
  .object({ ...fields, tags: z.array(Tag).min(1).max(100).describe('Tags to remove; others stay.') })
  .strict();
export type TagUnbindInput = z.infer<typeof TagUnbindInput>;

export const TagReplaceInput = z
  .object({
    ...fields,
    tags: z
      .array(Tag)
      .max(MAX_TAGS_PER_MEMORY)
      .describe('The complete tag set (0-100); an empty list clears every tag. Duplicates collapse.'),
  })
  .strict();
export type TagReplaceInput = z.infer<typeof TagReplaceInput>;

export const TagData = z.object({
  matched: z
    .number()
    .int()
    .describe(
      'Memories the operation matched (re-binding a tag a memory carries matches without changing it).',
    ),
  requested: z.number().int().describe('Distinct ids submitted; matched below it means some were not found.'),
});
export type TagData = z.infer<typeof TagData>;
