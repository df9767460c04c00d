import { EditData, EditInput } from '../../contract/profile-edit.js';
import { TagBindInput, TagData, TagReplaceInput, TagUnbindInput } from '../../contract/tags.js';
import type { TagChange } from '../../engine/memory/tags.js';
import { defineTool } from './tool.js';

/** Memory tags and profile edits, over the REST operations' schemas. */

const tagText = (verb: string, d: { matched: number; requested: number }) =>
  `${verb} ${d.matched} of ${d.requested} memories` +
  (d.matched < d.requested ? ' (the others were not found, or already hold 100 tags).' : '.');

const idempotent = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** One tool per tag operation: the same call, another change. */
const tagTool = (
  name: string,
  title: string,
  description: string,
  input: typeof TagBindInput | typeof TagUnbindInput | typeof TagReplaceInput,
  change: TagChange,
  verb: string,
  destructive = false,
) =>
  defineTool({
    name,
    title,
    description,
    input,
    output: TagData,
    annotations: { ...idempotent, destructiveHint: destructive },
    run: async ({ engram, ctx }, args: TagBindInput) => {
      const data = await engram.memory.tags(ctx, change, args.memory_ids, args.tags);
      return { data, text: tagText(verb, data) };
    },
  });

export const tagMemories = tagTool(
  'tag_memories',
  'Tag memories',
  'Add tags (1-100, each 1-32 characters) to episodes by memory_ids (1-200), keeping the tags ' +
    'they already carry; memory_type is "episode". Tags come into existence by use. get_memories ' +
    'and recall can then filter on them: filters {"tags": "travel"} or {"tags": {"in": ["a", "b"]}}.',
  TagBindInput,
  'bind',
  'Tagged',
);

export const untagMemories = tagTool(
  'untag_memories',
  'Untag memories',
  'Remove the given tags from episodes by memory_ids, leaving their other tags in place.',
  TagUnbindInput,
  'unbind',
  'Untagged',
);

export const retagMemories = tagTool(
  'retag_memories',
  'Replace memory tags',
  "Overwrite episodes' tag sets with tags (0-100): tags not listed are dropped, an empty list clears them.",
  TagReplaceInput,
  'replace',
  'Retagged',
  true,
);

export const editProfile = defineTool({
  name: 'edit_profile',
  title: 'Edit profile',
  description:
    "Correct one user's profile: 1-50 operations, each action add (data: category + description " +
    'for explicit_info, trait + description for implicit_traits), update (item_id + the fields to ' +
    'change) or delete (item_id). Item ids start with ei_ (explicit_info) or it_ (implicit_traits); ' +
    'get_memories with memory_type "profile" lists them. Each operation is reported applied or rejected.',
  input: EditInput,
  output: EditData,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async ({ engram, ctx }, input) => {
    const data = await engram.memory.editProfile(ctx, input);
    const rejected = data.results.filter((r) => r.status === 'rejected');
    return {
      data,
      text:
        `Applied ${data.applied} of ${input.operations.length} edits to the profile of ${input.user_id} ` +
        `(version ${data.version}).` +
        rejected.map((r) => `\nRejected #${r.op_index} (${r.action}): ${r.error}`).join(''),
    };
  },
});
