import type { EditData, EditInput, EditOperation } from '../../contract/profile-edit.js';
import type { ProfileData } from '../../contract/records.js';
import { newItemId } from '../../core/ids.js';
import type { Ctx, MemoryDeps, Scope } from './deps.js';
import { lockProfile, writeProfile } from './extract.js';
import { emptyProfile, MAX_EXPLICIT, MAX_IMPLICIT, summarise } from './profile.js';

type Entry = ProfileData['explicit_info'][number];
type Result = EditData['results'][number];

const CAP = { explicit_info: MAX_EXPLICIT, implicit_traits: MAX_IMPLICIT } as const;
const PREFIX = { explicit_info: 'ei', implicit_traits: 'it' } as const;

/** Keys engram keeps for itself on an item. */
const OWN_KEYS = new Set(['item_id', 'source_message_ids', 'updated_at']);

/** The keys of data that were given (null means "not given", as in the contract), minus engram's own. */
const given = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([k, v]) => v != null && !OWN_KEYS.has(k)));

/**
 * edit: applies 1-50 operations to one user's profile, in order, under the profile's lock.
 * An operation that cannot apply (unknown item, profile full) is reported rejected and
 * the others still apply; the profile is written (and its version advanced) once, only
 * when something applied.
 */
export async function editProfile(deps: MemoryDeps, ctx: Ctx, input: EditInput): Promise<EditData> {
  const scope: Scope = { appId: input.app_id, projectId: input.project_id };
  const at = new Date().toISOString();
  const out = await deps.db.transaction(async (tx) => {
    const existing = await lockProfile(tx, ctx, scope, input.user_id);
    const profile = structuredClone(existing?.profile_data ?? emptyProfile());
    const results = input.operations.map((op, i) => ({ op_index: i, ...apply(profile, op, at) }));
    const applied = results.filter((r) => r.status === 'applied').length;
    if (!applied) return { results, applied, version: existing?.version ?? 0, profile, id: existing?.id };
    profile.summary = summarise(profile.explicit_info, profile.implicit_traits);
    const written = await writeProfile(tx, ctx, scope, input.user_id, existing, profile);
    return { results, applied, profile, ...written };
  });
  if (out.applied && out.id)
    deps.events.emit({
      tenantId: ctx.tenantId,
      appId: scope.appId,
      projectId: scope.projectId,
      kind: 'profile',
      action: 'updated',
      ownerIds: [input.user_id],
      ids: [out.id],
    });
  return {
    user_id: input.user_id,
    version: out.version,
    applied: out.applied,
    results: out.results,
    profile: out.profile,
  };
}

function apply(profile: ProfileData, op: EditOperation, at: string): Omit<Result, 'op_index'> {
  const items = profile[op.type];
  const base = { action: op.action, type: op.type };
  const reason = op.reason ? { reason: op.reason } : {};
  if (op.action === 'add') {
    if (items.length >= CAP[op.type])
      return {
        ...base,
        status: 'rejected',
        error: `the profile already holds ${CAP[op.type]} ${op.type} items`,
      };
    // the contract requires the type's own keys and description on an add
    const entry: Entry = {
      ...given(op.data),
      ...reason,
      description: op.data.description!,
      item_id: newItemId(PREFIX[op.type]),
      source_message_ids: [],
      updated_at: at,
    };
    items.push(entry);
    return { ...base, status: 'applied', new_item_id: entry.item_id };
  }
  const index = items.findIndex((e) => e.item_id === op.item_id);
  if (index < 0)
    return { ...base, status: 'rejected', item_id: op.item_id, error: `no ${op.type} item ${op.item_id}` };
  if (op.action === 'delete') items.splice(index, 1);
  else items[index] = { ...items[index]!, ...given(op.data), ...reason, updated_at: at } as Entry;
  return { ...base, status: 'applied', item_id: op.item_id };
}
