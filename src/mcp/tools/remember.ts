import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Message, SessionId, scope } from '../../contract/common.js';
import { AddData, AddInput } from '../../contract/memory-write.js';
import { fromZod } from '../../core/errors.js';
import { defineTool } from './tool.js';

/**
 * remember: the add operation on its asynchronous path, so an agent never waits for an
 * LLM. Either `messages` exactly as POST /api/v2/memory/add takes them, or a plain
 * `note` about an owner, stored as one message at the current time.
 */
export const RememberInput = z
  .object({
    ...scope,
    session_id: SessionId.optional().describe(
      'The conversation the messages belong to (required with messages). A note defaults to "notes-<owner>".',
    ),
    messages: z.array(Message).min(1).max(500).optional().describe('Conversation turns to store, in order.'),
    note: z
      .string()
      .min(1)
      .max(8000)
      .optional()
      .describe('Instead of messages: a plain note to remember (a fact, preference, decision).'),
    user_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('Owner of the note when it is about a user: stored as a message from this user.'),
    agent_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe("Owner of the note when it is the agent's own: stored as an assistant message."),
    sender_name: z.string().max(256).optional().describe("Display name of the note's owner."),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.messages == null) === (v.note == null))
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'give either messages or note' });
    if (v.messages != null && v.session_id == null)
      ctx.addIssue({ code: 'custom', path: ['session_id'], message: 'required with messages' });
    if (v.note != null && (v.user_id == null) === (v.agent_id == null))
      ctx.addIssue({
        code: 'custom',
        path: ['user_id'],
        message: 'a note needs exactly one owner: user_id or agent_id',
      });
    if (v.messages != null && (v.user_id != null || v.agent_id != null || v.sender_name != null))
      ctx.addIssue({
        code: 'custom',
        path: ['user_id'],
        message: 'user_id, agent_id and sender_name go with a note; messages carry their own sender_id',
      });
  });
export type RememberInput = z.infer<typeof RememberInput>;

/** The add request a remember call stands for (always async_mode). */
export function toAddInput(input: RememberInput, now = Date.now()): AddInput {
  let { session_id, messages } = input;
  if (input.note != null) {
    const owner = (input.user_id ?? input.agent_id)!;
    session_id ??= noteSession(owner);
    messages = [
      {
        sender_id: owner,
        role: input.user_id != null ? 'user' : 'assistant',
        content: input.note,
        timestamp: now,
        ...(input.sender_name ? { sender_name: input.sender_name } : {}),
      },
    ];
  }
  const add = { app_id: input.app_id, project_id: input.project_id, session_id, messages, async_mode: true };
  const parsed = AddInput.safeParse(add);
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

/** Notes of one owner share a session of their own (never mixing owners into one episode). */
function noteSession(owner: string): string {
  const id = `notes-${owner}`;
  return id.length <= 128 ? id : `notes-${createHash('sha256').update(owner).digest('hex').slice(0, 32)}`;
}

export const remember = defineTool({
  name: 'remember',
  title: 'Remember',
  description:
    'Store something in long-term memory. Pass the new turns of a conversation as messages ' +
    '(sender_id, role user|assistant|tool, content, timestamp in Unix ms) with a session_id, or a ' +
    'plain note with the user_id (or agent_id) it is about. Returns at once: the messages are ' +
    'stored durably and found by recall right away. A note is extracted into memory (episodes, ' +
    'profile) in the background at once; conversation turns are extracted when the conversation ' +
    'reaches a boundary (a topic shift, a long gap, a day change, the session going idle, or ' +
    'flush_session). get_task with the task_id says what was extracted and what is still buffered.',
  input: RememberInput,
  output: AddData,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async ({ engram, ctx }, input) => {
    const add = toAddInput(input);
    const note = input.note != null;
    const { data } = await engram.memory.add(ctx, add, { extractNow: note });
    const n = data.message_count;
    const task = data.task_id ? ` (task ${data.task_id})` : '';
    return {
      data,
      text:
        `Stored ${n} message${n === 1 ? '' : 's'} in session ${add.session_id}; recall finds ` +
        `${n === 1 ? 'it' : 'them'} already. ` +
        (note
          ? `The note is being extracted into memory now${task}.`
          : `Memory is extracted in the background when the conversation reaches a boundary or goes idle${task}; ` +
            'flush_session extracts it at once.'),
    };
  },
});
