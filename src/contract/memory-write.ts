import { z } from 'zod';
import { MemoryId, Message, SessionId, scope } from './common.js';
import { EpisodeItem } from './records.js';

/** POST /api/v2/memory/add */
export const AddInput = z.object({
  ...scope,
  session_id: SessionId,
  messages: z.array(Message).min(1).max(500).describe('The turns to append, in order (1-500).'),
  async_mode: z
    .boolean()
    .default(false)
    .describe(
      'false (default): stored and processed before the answer (200). true: stored, then processed in the background (202 + task_id).',
    ),
});
export type AddInput = z.infer<typeof AddInput>;

export const AddData = z.object({
  message_count: z.number().int(),
  status: z.enum(['accumulated', 'extracted', 'queued']),
  task_id: z
    .string()
    .optional()
    .describe('Present when status is "queued": follow it with GET /api/v2/tasks/{task_id}.'),
  message_ids: z.array(z.string()).describe('Ids given to the stored messages, in request order.'),
});
export type AddData = z.infer<typeof AddData>;

/** POST /api/v2/memory/flush */
export const FlushInput = z.object({ ...scope, session_id: SessionId });
export type FlushInput = z.infer<typeof FlushInput>;
export const FlushData = z.object({ status: z.enum(['extracted', 'no_extraction']) });
export type FlushData = z.infer<typeof FlushData>;

export const DeleteReasonCode = z.enum([
  'hallucination',
  'wrong_subject',
  'wrong_time',
  'redundant',
  'missing',
  'privacy',
  'style',
  'other',
]);
export const Reason = z.object({ code: DeleteReasonCode, note: z.string().max(256).nullish() }).strict();

/** POST /api/v2/memory/update: rewrite an episode's narrative, summary or subject. */
export const EpisodePatch = z
  .object({
    episode: z.string().min(1).max(8000).nullish(),
    summary: z.string().min(1).max(1000).nullish(),
    subject: z.string().min(1).max(200).nullish(),
  })
  .strict()
  .refine((p) => p.episode != null || p.summary != null || p.subject != null, {
    message: 'patch needs at least one of episode, summary, subject',
  });
export const UpdateInput = z
  .object({
    memory_type: z.literal('episode', { error: 'only "episode" can be updated' }),
    memory_id: MemoryId,
    patch: EpisodePatch,
    reason: Reason.nullish(),
  })
  .strict();
export type UpdateInput = z.infer<typeof UpdateInput>;
export const UpdateData = EpisodeItem.extend({ unchanged: z.boolean() });
export type UpdateData = z.infer<typeof UpdateData>;

/** POST /api/v2/memory/delete: by scope. */
export const DeleteInput = z
  .object({
    ...scope,
    user_id: z.string().min(1).max(256).nullish(),
    agent_id: z.string().min(1).max(256).nullish(),
    session_id: z.string().min(1).max(128).nullish(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.user_id == null && v.agent_id == null && v.session_id == null)
      ctx.addIssue({
        code: 'custom',
        path: ['user_id'],
        message: 'at least one of user_id, agent_id or session_id is required',
      });
    if (v.user_id != null && v.agent_id != null)
      ctx.addIssue({
        code: 'custom',
        path: ['agent_id'],
        message: 'user_id and agent_id are mutually exclusive',
      });
  });
export type DeleteInput = z.infer<typeof DeleteInput>;
export const DeleteData = z.object({
  filters: z.array(z.string()).describe('The scope filters that were applied.'),
  count: z.number().int().describe('Memories removed across all memory types.'),
});
export type DeleteData = z.infer<typeof DeleteData>;

/** POST /api/v2/memory/delete_by_ids: soft-delete episodes by id. */
export const DeleteByIdsInput = z
  .object({
    memory_type: z.literal('episode', { error: 'only "episode" can be deleted by id' }),
    memory_ids: z.array(MemoryId).min(1).max(50),
    reason: Reason.nullish(),
  })
  .strict();
export type DeleteByIdsInput = z.infer<typeof DeleteByIdsInput>;
export const DeleteByIdsData = z.object({ memory_type: z.string(), success: z.boolean() });
export type DeleteByIdsData = z.infer<typeof DeleteByIdsData>;

/** POST /api/v2/memory/feedback: a signal about one memory; changes nothing. */
export const FeedbackInput = z
  .object({
    memory_type: z.enum(['episode', 'profile', 'agent_case', 'agent_skill']),
    memory_id: MemoryId,
    item_id: z
      .string()
      .regex(/^(ei|it)_[0-9a-f]{24}$/, 'must be ei_ or it_ followed by 24 lowercase hex characters')
      .nullish(),
    rating: z.enum(['positive', 'negative']),
    reason: z
      .enum([
        'hallucination',
        'outdated',
        'wrong_subject',
        'wrong_time',
        'redundant',
        'privacy',
        'style',
        'other',
      ])
      .nullish(),
    note: z.string().min(1).max(256).nullish(),
    suggestion: z.string().min(1).max(8000).nullish(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.memory_type === 'profile' && v.item_id == null)
      ctx.addIssue({ code: 'custom', path: ['item_id'], message: 'required when memory_type is "profile"' });
    if (v.memory_type !== 'profile' && v.item_id != null)
      ctx.addIssue({ code: 'custom', path: ['item_id'], message: 'only a profile feedback takes item_id' });
    if (v.rating === 'positive' && v.reason != null)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'reason is for negative ratings only' });
    if (v.rating === 'positive' && v.suggestion != null)
      ctx.addIssue({
        code: 'custom',
        path: ['suggestion'],
        message: 'suggestion is for negative ratings only',
      });
  });
export type FeedbackInput = z.infer<typeof FeedbackInput>;
export const FeedbackData = z.object({ id: z.string().describe('Id of the stored signal.') });
