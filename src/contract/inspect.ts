import { z } from 'zod';
import { MemoryId } from './common.js';
import { UnprocessedMessage } from './search.js';

/**
 * Read operations for the inspector (/ui) and operators, beyond the v2 contract: which
 * owners hold memories, and stored messages by id (the provenance of a memory).
 */
const pageOf = (max: number, dflt: number) => ({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(max).default(dflt),
});

/** GET /api/v2/inspect/owners?kind=episodes|profile|cases|skills */
export const OwnersQuery = z
  .object({
    kind: z
      .enum(['episodes', 'profile', 'cases', 'skills'])
      .default('episodes')
      .describe('Users with episodes or a profile; agents with cases or skills.'),
    ...pageOf(200, 50),
  })
  .strict();
export type OwnersQuery = z.infer<typeof OwnersQuery>;
export const OwnersData = z.object({
  items: z.array(z.object({ app_id: z.string(), project_id: z.string(), owner: z.string() })),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type OwnersData = z.infer<typeof OwnersData>;

/** GET /api/v2/inspect/messages?ids=a,b,c (a memory's source_message_ids). */
export const MessagesQuery = z
  .object({
    ids: z
      .string()
      .min(1)
      .transform((s) => s.split(',').map((x) => x.trim().toLowerCase()))
      .pipe(z.array(MemoryId).min(1).max(200))
      .describe('Comma-separated message ids (1-200).'),
  })
  .strict();
export type MessagesQuery = z.infer<typeof MessagesQuery>;
export const MessagesData = z.object({
  items: z
    .array(UnprocessedMessage.omit({ score: true }))
    .describe('The live messages found, in conversation order.'),
});
export type MessagesData = z.infer<typeof MessagesData>;
