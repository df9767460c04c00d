import { GetData, GetInput } from '../../contract/memory-read.js';
import {
  DeleteByIdsData,
  DeleteByIdsInput,
  DeleteData,
  DeleteInput,
  FlushData,
  FlushInput,
  UpdateData,
  UpdateInput,
} from '../../contract/memory-write.js';
import { renderMemories } from '../render.js';
import { defineTool } from './tool.js';

/** One tool per remaining v2 memory operation, each over the REST operation's schemas. */

export const getMemories = defineTool({
  name: 'get_memories',
  title: 'Get memories',
  description:
    'List stored memories of one owner, newest first, a page at a time. Give memory_type ' +
    '("episode" or "profile" with user_id; "agent_case" or "agent_skill" with agent_id) and ' +
    'optionally filters on session_id, sender_id or timestamp. Use this to browse; use recall ' +
    'to find memories relevant to a question. The text lists each record; structuredContent has the full records.',
  input: GetInput,
  output: GetData,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, input) => {
    const data = await engram.memory.get(ctx, input);
    return { data, text: renderMemories(data, input.page) };
  },
});

export const flushSession = defineTool({
  name: 'flush_session',
  title: 'Flush session',
  description:
    'Extract memory now from the messages of a session that are still waiting for an ' +
    'extraction boundary (for example at the end of a conversation). Waits for the extraction ' +
    'and says whether anything was extracted (status "extracted" or "no_extraction").',
  input: FlushInput,
  output: FlushData,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, input) => {
    const data = await engram.memory.flush(ctx, input);
    return {
      data,
      text:
        data.status === 'extracted'
          ? `Extracted the waiting messages of session ${input.session_id} into memory; get_memories and recall show it now.`
          : `Nothing was waiting in session ${input.session_id}: every stored message was already extracted (or the session is empty).`,
    };
  },
});

export const updateEpisode = defineTool({
  name: 'update_episode',
  title: 'Update episode',
  description:
    'Correct an episode: replace its narrative (episode), summary or subject by memory_id. ' +
    'The previous text is overwritten; give a reason (code and note) when correcting a mistake. ' +
    'Returns the updated episode.',
  input: UpdateInput,
  output: UpdateData,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, input) => ({ data: await engram.memory.update(ctx, input) }),
});

export const deleteMemories = defineTool({
  name: 'delete_memories',
  title: 'Delete memories by scope',
  description:
    'Permanently forget everything of an owner (user_id or agent_id) and/or a session_id in ' +
    'one app/project partition: messages, episodes, profiles, agent cases and skills. Cannot be ' +
    'undone. Returns how many memories were removed.',
  input: DeleteInput,
  output: DeleteData,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, input) => ({ data: await engram.memory.delete(ctx, input) }),
});

export const deleteEpisodes = defineTool({
  name: 'delete_episodes',
  title: 'Delete episodes by id',
  description:
    'Delete specific episodes by memory_ids (1-50), for example wrong or private ones; give a ' +
    'reason code. Unknown ids are ignored.',
  input: DeleteByIdsInput,
  output: DeleteByIdsData,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, input) => ({ data: await engram.memory.deleteByIds(ctx, input) }),
});
