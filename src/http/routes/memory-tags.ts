import type { Hono } from 'hono';
import { EditData, EditInput } from '../../contract/profile-edit.js';
import { TagBindInput, TagData, TagReplaceInput, TagUnbindInput } from '../../contract/tags.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { operation } from './operation.js';

/** Memory tags (bind, unbind, replace) and profile edits. */
export function memoryTagRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: { get(k: 'principal'): { tenantId: string; keyId: string } }) => {
    const p = c.get('principal');
    return { tenantId: p.tenantId, keyId: p.keyId };
  };
  const post = { method: 'post', tag: 'Memory' } as const;
  const tagOps = [
    ['bind', 'bindTags', 'Bind tags to memories, keeping the tags they carry', TagBindInput],
    ['unbind', 'unbindTags', 'Unbind tags from memories, keeping their other tags', TagUnbindInput],
    ['replace', 'replaceTags', "Replace memories' tag sets (an empty list clears them)", TagReplaceInput],
  ] as const;
  for (const [change, operationId, summary, body] of tagOps)
    operation(
      app,
      { ...post, path: `/api/v2/memory/tag/${change}`, operationId, summary, body, data: TagData },
      async (c, { body }) => ({
        data: await engram.memory.tags(ctx(c), change, body.memory_ids, body.tags),
      }),
    );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/edit',
      operationId: 'editProfile',
      summary: "Add, update or delete items of one user's profile",
      description:
        'Apply 1-50 operations (add / update / delete of explicit_info or implicit_traits items) to one ' +
        "user's profile. Each is reported applied or rejected; the profile is written once.",
      body: EditInput,
      data: EditData,
    },
    async (c, { body }) => ({ data: await engram.memory.editProfile(ctx(c), body) }),
  );
}
