import { z } from 'zod';
import { SessionId, scope } from './common.js';
import { AddInput, FlushData, FlushInput } from './memory-write.js';
import { UnprocessedMessage } from './search.js';
import { oneOwner, owners, page, pageSize, V1Memory, V1MemoryType, v1SearchFields } from './v1.js';

/**
 * The self-hosted v1 memory interface, `/api/v1/memory/*`. Add takes the spec's v2-named
 * body (session_id, messages with millisecond timestamps, app_id, project_id) and answers
 * `request_id` + `data` (`message_count`, `status`). Flush is the v2 flush. Get and search
 * take the same v2 field names with the v1 memory types (`episodic_memory`, `profile`,
 * `agent_memory`) and answer the v1 read shapes: `memories` (+ `total_count`, `has_more`),
 * and for search `raw_messages` and the single best `agent_memory`.
 */

/** POST /api/v1/memory/add: always processed in the request (no async_mode in v1). */
export const V1MemoryAddInput = AddInput.omit({ async_mode: true });
export type V1MemoryAddInput = z.infer<typeof V1MemoryAddInput>;
export const V1MemoryAddData = z.object({
  message_count: z.number().int(),
  status: z.enum(['accumulated', 'extracted']),
});

/** POST /api/v1/memory/flush */
export const V1MemoryFlushInput = FlushInput;
export const V1MemoryFlushData = FlushData;

const read = {
  ...scope,
  ...owners,
  session_id: SessionId.nullish().describe('Only memories of this session.'),
};

/** POST /api/v1/memory/get */
export const V1MemoryGetInput = z
  .object({ ...read, memory_type: V1MemoryType.default('episodic_memory'), page, page_size: pageSize })
  .strict()
  .superRefine(oneOwner);
export type V1MemoryGetInput = z.infer<typeof V1MemoryGetInput>;

/** A memory in self-hosted v1 terms: the v1 type name, its session and the caller's partition. */
export const V1SelfMemory = V1Memory.omit({ group_id: true }).extend({
  session_id: z.string().nullable(),
  app_id: z.string(),
  project_id: z.string(),
});
export type V1SelfMemory = z.infer<typeof V1SelfMemory>;

export const V1MemoryGetData = z.object({
  memories: z.array(V1SelfMemory),
  total_count: z.number().int(),
  has_more: z.boolean(),
});

/** POST /api/v1/memory/search */
export const V1MemorySearchInput = z
  .object({ ...read, ...v1SearchFields })
  .strict()
  .superRefine(oneOwner);
export type V1MemorySearchInput = z.infer<typeof V1MemorySearchInput>;
export const V1MemorySearchData = z.object({
  memories: z.array(V1SelfMemory),
  raw_messages: z
    .array(UnprocessedMessage)
    .describe('Messages not extracted yet (v2: unprocessed_messages).'),
  agent_memory: V1SelfMemory.nullable().describe(
    'The best agent case or skill (v2: agent_cases, agent_skills).',
  ),
  total_count: z.number().int(),
});
