import { z } from 'zod';
import { MIN_TIMESTAMP_MS, QueryText } from './common.js';
import { IsoInstant } from './time.js';

/**
 * The legacy v1 (Cloud) interface. Request shapes follow the spec's "Legacy v1 (Cloud)"
 * table; the flush, get, search and delete bodies the spec leaves to their v2
 * replacements take the v2 operation's fields under their v1 names (group_id for
 * session_id, the v1 memory type names). Answers use the v1 envelope
 * `status` / `message` / `result`.
 */
export const Id = z.string().min(1).max(128);

/**
 * ISO 8601 date-time (range-checked like every time input), parsed to Unix milliseconds;
 * no earlier than the v2 message floor, so every v1 message can be migrated.
 */
export const IsoTime = IsoInstant.transform((s) => Date.parse(s)).refine(
  (ms) => ms >= MIN_TIMESTAMP_MS,
  `must be no earlier than ${new Date(MIN_TIMESTAMP_MS).toISOString()}`,
);

/** POST /api/v1/memories and /api/v1/memories/agent: one message. */
export const V1AddInput = z
  .object({
    message_id: Id.describe('Client id of the message; sending it again is a no-op.'),
    create_time: IsoTime.describe('When the message was sent (ISO 8601).'),
    sender: Id.describe('Who sent it (becomes sender_id on migration).'),
    content: z.string().min(1).max(100_000),
    group_id: Id.nullish().describe('Conversation the message belongs to (a v2 session).'),
    group_name: z.string().max(256).nullish(),
    sender_name: z.string().max(256).nullish().describe('Defaults to sender.'),
    role: z.enum(['user', 'assistant']).nullish(),
    refer_list: z.array(Id).max(500).nullish().describe('Ids of messages this one refers to.'),
  })
  .strict();
export type V1AddInput = z.infer<typeof V1AddInput>;

/** POST /api/v1/memories/group: one message of a group conversation (group_id required). */
export const V1GroupAddInput = V1AddInput.extend({
  group_id: Id.describe('Conversation the message belongs to (a v2 session).'),
});

export const V1Memory = z
  .object({
    id: z.string(),
    memory_type: z.enum(['episodic_memory', 'profile', 'agent_memory']),
    group_id: z.string().nullable(),
    timestamp: z.string().nullable(),
    score: z.number().optional(),
  })
  .catchall(z.unknown());
export type V1Memory = z.infer<typeof V1Memory>;

export const V1AddResult = z.object({
  saved_memories: z.array(V1Memory),
  count: z.number().int(),
  status_info: z.enum(['accumulated', 'extracted']),
});
export type V1AddResult = z.infer<typeof V1AddResult>;

export const V1_DEFAULT_GROUP = 'default';

/** POST /api/v1/memories/flush */
export const V1FlushInput = z.object({ group_id: Id.default(V1_DEFAULT_GROUP) }).strict();
export const V1FlushResult = z.object({ status_info: z.enum(['extracted', 'no_extraction']) });

export const V1MemoryType = z.enum(['episodic_memory', 'profile', 'agent_memory']);
export type V1MemoryType = z.infer<typeof V1MemoryType>;

export const owners = { user_id: Id.nullish(), agent_id: Id.nullish() };
const owner = { ...owners, group_id: Id.nullish().describe('Only memories of this group.') };
export const oneOwner = (v: { user_id?: string | null; agent_id?: string | null }, ctx: z.RefinementCtx) => {
  if ((v.user_id == null) === (v.agent_id == null))
    ctx.addIssue({
      code: 'custom',
      path: ['user_id'],
      message: 'exactly one of user_id or agent_id is required',
    });
};

export const page = z.number().int().min(1).default(1);
export const pageSize = z.number().int().min(1).max(100).default(20);

/** POST /api/v1/memories/get */
export const V1GetInput = z
  .object({ ...owner, memory_type: V1MemoryType.default('episodic_memory'), page, limit: pageSize })
  .strict()
  .superRefine(oneOwner);
export type V1GetInput = z.infer<typeof V1GetInput>;
export const V1GetResult = z.object({
  memories: z.array(V1Memory),
  total_count: z.number().int(),
  has_more: z.boolean(),
});

/** What a v1 search asks, on both v1 interfaces. */
export const v1SearchFields = {
  query: QueryText,
  memory_types: z.array(V1MemoryType).min(1).max(3).default(['episodic_memory']),
  retrieve_method: z.enum(['keyword', 'vector', 'hybrid', 'agentic']).default('hybrid'),
  top_k: z.number().int().min(1).max(100).default(10),
};

/** POST /api/v1/memories/search */
export const V1SearchInput = z
  .object({ ...owner, ...v1SearchFields })
  .strict()
  .superRefine(oneOwner);
export type V1SearchInput = z.infer<typeof V1SearchInput>;
export const V1RawMessage = z.object({
  message_id: z.string(),
  group_id: z.string(),
  sender: z.string(),
  sender_name: z.string(),
  role: z.string(),
  content: z.string(),
  create_time: z.string(),
  score: z.number().optional(),
});
export const V1SearchResult = z.object({
  memories: z.array(V1Memory),
  raw_messages: z.array(V1RawMessage),
  agent_memory: V1Memory.nullable(),
  total_count: z.number().int(),
});

/** POST /api/v1/memories/delete: by owner and/or group, or one memory by id (204). */
export const V1DeleteInput = z
  .object({
    ...owner,
    memory_id: z
      .string()
      .regex(/^[0-9a-fA-F]{24}$/, 'must be 24 hexadecimal characters')
      .nullish(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.user_id == null && v.agent_id == null && v.group_id == null && v.memory_id == null)
      ctx.addIssue({
        code: 'custom',
        path: ['user_id'],
        message: 'one of user_id, agent_id, group_id or memory_id is required',
      });
    if (v.user_id != null && v.agent_id != null)
      ctx.addIssue({
        code: 'custom',
        path: ['agent_id'],
        message: 'user_id and agent_id are mutually exclusive',
      });
    if (v.memory_id != null && (v.user_id != null || v.agent_id != null || v.group_id != null))
      ctx.addIssue({ code: 'custom', path: ['memory_id'], message: 'memory_id is used alone' });
  });
export type V1DeleteInput = z.infer<typeof V1DeleteInput>;

/** PATCH /api/v1/senders/{sender_id} */
export const V1SenderPath = z.object({ sender_id: Id });
export const V1SenderPatch = z.object({ name: z.string().min(1).max(256) }).strict();
export const V1Sender = z.object({
  sender_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** GET /api/v1/groups/{group_id} */
export const V1GroupPath = z.object({ group_id: Id });
export const V1Group = z.object({
  group_id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The v1 memories envelope. */
export const v1Envelope = <T extends z.ZodType>(result: T) =>
  z.object({ status: z.enum(['ok', 'failed']), message: z.string(), result });
