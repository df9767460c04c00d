import { z } from 'zod';
import { ITEM_ID_RE, MEMORY_ID_RE } from '../core/ids.js';
import { UnixMs } from './time.js';

/**
 * Shapes shared by several operations. Field names, defaults and limits follow the
 * contract (spec first, the published OpenAPI where the spec says "not shown").
 */
export const SCOPE_RE = /^[a-zA-Z0-9_.@+-]+$/;
const scopeField = (name: string) =>
  z
    .string()
    .min(1)
    .max(128)
    .regex(SCOPE_RE, `${name} may contain only letters, digits and _ . @ + -`)
    .default('default')
    .describe(`Partition of the tenant's memory (default "default"); reads must use the pair used on write.`);

export const scope = { app_id: scopeField('app_id'), project_id: scopeField('project_id') };

export const SessionId = z.string().min(1).max(128).describe('The conversation (1-128 characters).');
export const OwnerId = z.string().min(1).max(256);
/** A search's query: some text, not white space alone (which would match nothing and rank by noise). */
export const QueryText = z
  .string()
  .min(1)
  .max(4000)
  .regex(/\S/, 'must hold a character other than white space');
export const MemoryType = z.enum(['episode', 'profile', 'agent_case', 'agent_skill']);
export type MemoryType = z.infer<typeof MemoryType>;
export const MemoryId = z.string().regex(MEMORY_ID_RE, 'must be 24 hexadecimal characters');
export const ItemId = z
  .string()
  .regex(ITEM_ID_RE, 'must be ei_ or it_ followed by 24 lowercase hex characters');

/** Which owner field goes with which memory type. */
export const OWNER_OF: Record<MemoryType, 'user_id' | 'agent_id'> = {
  episode: 'user_id',
  profile: 'user_id',
  agent_case: 'agent_id',
  agent_skill: 'agent_id',
};

/** Exactly one of user_id / agent_id, agreeing with memory_type when one is given. */
export function checkOwner(
  v: {
    user_id?: string | null | undefined;
    agent_id?: string | null | undefined;
    memory_type?: MemoryType | null | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const hasUser = v.user_id != null;
  const hasAgent = v.agent_id != null;
  if (hasUser === hasAgent) {
    ctx.addIssue({
      code: 'custom',
      path: [hasUser ? 'agent_id' : 'user_id'],
      message: 'exactly one of user_id or agent_id is required',
    });
    return;
  }
  if (v.memory_type) {
    const want = OWNER_OF[v.memory_type];
    const given = hasUser ? 'user_id' : 'agent_id';
    if (want !== given)
      ctx.addIssue({
        code: 'custom',
        path: ['memory_type'],
        message: `memory_type "${v.memory_type}" belongs to ${want}, not ${given}`,
      });
  }
}

export const ToolCall = z.object({
  id: z.string().min(1).max(256),
  type: z.literal('function').default('function'),
  function: z.object({
    name: z.string().min(1).max(256),
    arguments: z.string().describe('JSON-encoded arguments, as in the OpenAI tool-calling shape'),
  }),
});

export const ContentItem = z.object({
  type: z.enum(['text', 'audio', 'image', 'doc', 'pdf', 'html', 'email']),
  text: z.string().nullish(),
  source: z.string().nullish(),
  base64: z.string().nullish(),
  uri: z.string().nullish(),
  ext: z.string().nullish(),
  name: z.string().nullish(),
  source_info: z.record(z.string(), z.unknown()).nullish(),
  extras: z.record(z.string(), z.unknown()).nullish(),
});

export const MIN_TIMESTAMP_MS = 1_000_000_000_000;

export const Message = z
  .object({
    sender_id: z.string().min(1).max(128).describe('Who produced the message: the user id or the agent id.'),
    sender_name: z.string().max(256).nullish().describe('Display name of the sender.'),
    role: z.enum(['user', 'assistant', 'tool']).describe('user, assistant, or tool (a tool result).'),
    timestamp: UnixMs(
      MIN_TIMESTAMP_MS,
      'must be Unix time in milliseconds (>= 1000000000000); seconds are never rescaled',
    ).describe('When the message was sent, in Unix milliseconds (for example 1767225600000).'),
    content: z
      .union([z.string(), z.array(ContentItem).min(1)])
      .describe('The message text, or content items (text, image, doc, ...).'),
    tool_calls: z.array(ToolCall).max(128).nullish(),
    tool_call_id: z.string().min(1).max(256).nullish(),
  })
  .superRefine((m, ctx) => {
    if (m.role === 'tool' && !m.tool_call_id)
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'required when role is "tool"' });
    if (m.tool_calls?.length && m.role !== 'assistant')
      ctx.addIssue({
        code: 'custom',
        path: ['tool_calls'],
        message: 'only an assistant message carries tool_calls',
      });
  });
export type MessageInput = z.infer<typeof Message>;

/** A content item as stored and answered (a message's, or a search answer's looser record). */
type ContentPart = { type?: unknown; text?: unknown; name?: unknown };

/** Text of a message body (content items contribute their text, others their type and name). */
export function messageText(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((c) =>
      typeof c.text === 'string'
        ? c.text
        : c.name
          ? `[${String(c.type)}: ${String(c.name)}]`
          : `[${String(c.type)}]`,
    )
    .filter(Boolean)
    .join('\n');
}
