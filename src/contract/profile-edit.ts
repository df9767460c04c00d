import { z } from 'zod';
import { OwnerId, scope } from './common.js';

/**
 * POST /api/v2/memory/edit: 1-50 operations on one user's profile items. The shape of
 * each operation is checked up front (a malformed one rejects the request and changes
 * nothing); whether it can apply (the item exists, the profile has room) is reported per
 * operation, so one can be rejected while the rest apply.
 */
const Reason = z.string().max(256).nullish().describe('Why this edit was made (stored with the item).');
const Text = z.string().min(1).max(4000);
const ItemType = z.enum(['explicit_info', 'implicit_traits']);
const PREFIX = { explicit_info: 'ei_', implicit_traits: 'it_' } as const;
const ItemRef = z
  .string()
  .regex(/^(ei|it)_[0-9a-f]{24}$/, 'must be ei_ or it_ followed by 24 lowercase hex characters');

/** Item data: the type's own keys, others ride along. */
const ItemData = z
  .object({
    category: z.string().min(1).max(128).nullish(),
    trait: z.string().min(1).max(128).nullish(),
    description: Text.nullish(),
  })
  .catchall(z.unknown());

const AddOperation = z
  .object({ action: z.literal('add'), type: ItemType, data: ItemData, reason: Reason })
  .strict();
const UpdateOperation = z
  .object({ action: z.literal('update'), type: ItemType, item_id: ItemRef, data: ItemData, reason: Reason })
  .strict();
const DeleteOperation = z
  .object({ action: z.literal('delete'), type: ItemType, item_id: ItemRef, reason: Reason })
  .strict();

export const EditOperation = z
  .discriminatedUnion('action', [AddOperation, UpdateOperation, DeleteOperation])
  .superRefine((op, ctx) => {
    const own = op.type === 'explicit_info' ? 'category' : 'trait';
    if ('item_id' in op && !op.item_id.startsWith(PREFIX[op.type]))
      ctx.addIssue({
        code: 'custom',
        path: ['item_id'],
        message: `a ${op.type} item id starts with ${PREFIX[op.type]}`,
      });
    if (op.action === 'add')
      for (const key of [own, 'description'] as const)
        if (op.data[key] == null)
          ctx.addIssue({ code: 'custom', path: ['data', key], message: `required to add ${op.type}` });
    if (op.action === 'update' && op.data[own] == null && op.data.description == null)
      ctx.addIssue({ code: 'custom', path: ['data'], message: `needs ${own} or description` });
  });
export type EditOperation = z.infer<typeof EditOperation>;

export const EditInput = z
  .object({
    ...scope,
    user_id: OwnerId.describe('The user whose profile is edited.'),
    memory_type: z.literal('profile', { error: 'only "profile" can be edited' }).default('profile'),
    operations: z.array(EditOperation).min(1).max(50),
  })
  .strict();
export type EditInput = z.infer<typeof EditInput>;

export const EditResultItem = z.object({
  op_index: z.number().int(),
  action: z.string(),
  type: z.string(),
  status: z.enum(['applied', 'rejected']),
  item_id: z.string().nullable().optional(),
  new_item_id: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
});
export const EditData = z.object({
  user_id: z.string(),
  version: z.number().int().describe('The profile version after the edit; it advances on every change.'),
  applied: z.number().int(),
  results: z.array(EditResultItem),
  profile: z.record(z.string(), z.unknown()).describe('The profile data after the edit.'),
});
export type EditData = z.infer<typeof EditData>;
