import type { ProfileData } from '../../contract/records.js';
import { newItemId } from '../../core/ids.js';
import type { ProfileObservation } from '../../core/ports.js';
import { contentWords, jaccard } from '../text.js';

/**
 * Merges what a segment observed about a user into their profile. Profiles stay bounded:
 * an observation that repeats or contradicts an existing item replaces it (the newer fact
 * wins, the item keeps its id and gathers sources); single-valued categories (where one
 * lives, works, ...) hold one current item; past the caps the least recently confirmed
 * items go first.
 */
export const MAX_EXPLICIT = 100;
export const MAX_IMPLICIT = 30;
const SINGLE_VALUED = new Set(['location', 'occupation', 'name', 'age', 'relationship_status', 'education']);
const SIMILAR = 0.5;

type Entry = ProfileData['explicit_info'][number];

export function emptyProfile(): ProfileData {
  return { summary: '', explicit_info: [], implicit_traits: [] };
}

export function mergeProfile(current: ProfileData, obs: ProfileObservation, at: string): ProfileData {
  const explicit = [...current.explicit_info];
  for (const item of obs.explicit_info) {
    const category = normaliseCategory(item.category);
    const words = contentWords(item.description);
    const same = explicit.findIndex(
      (e) =>
        normaliseCategory(e.category ?? '') === category &&
        (SINGLE_VALUED.has(category) || jaccard(contentWords(e.description), words) >= SIMILAR),
    );
    const entry: Entry = {
      item_id: same >= 0 ? explicit[same]!.item_id : newItemId('ei'),
      category,
      description: item.description,
      source_message_ids: union(same >= 0 ? explicit[same]!.source_message_ids : [], item.message_ids),
      updated_at: at,
    };
    if (same >= 0) explicit[same] = entry;
    else explicit.push(entry);
  }
  const implicit = [...current.implicit_traits];
  for (const item of obs.implicit_traits) {
    const trait = item.trait.trim().toLowerCase();
    const same = implicit.findIndex((e) => (e.trait ?? '').trim().toLowerCase() === trait);
    const entry: Entry = {
      item_id: same >= 0 ? implicit[same]!.item_id : newItemId('it'),
      trait: item.trait.trim(),
      description: item.description,
      source_message_ids: union(same >= 0 ? implicit[same]!.source_message_ids : [], item.message_ids),
      updated_at: at,
    };
    if (same >= 0) implicit[same] = entry;
    else implicit.push(entry);
  }
  const explicitKept = newestFirstCap(explicit, MAX_EXPLICIT);
  const implicitKept = newestFirstCap(implicit, MAX_IMPLICIT);
  return {
    ...current,
    summary: summarise(explicitKept, implicitKept),
    explicit_info: explicitKept,
    implicit_traits: implicitKept,
  };
}

function normaliseCategory(c: string): string {
  return (
    c
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'other'
  );
}

const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].slice(-50);

/** Drops the least recently updated items past the cap, keeping the original order. */
function newestFirstCap(items: Entry[], cap: number): Entry[] {
  if (items.length <= cap) return items;
  const keep = new Set(
    [...items]
      .map((e, i) => ({ e, i }))
      .sort((a, b) => b.e.updated_at.localeCompare(a.e.updated_at) || b.i - a.i)
      .slice(0, cap)
      .map((x) => x.e),
  );
  return items.filter((e) => keep.has(e));
}

export function summarise(explicit: Entry[], implicit: Entry[]): string {
  const latest = [...explicit].sort((a, b) => b.updated_at.localeCompare(a.updated_at)).slice(0, 6);
  const traits = implicit.slice(0, 3).map((t) => t.trait);
  const parts = latest.map((e) => e.description.replace(/\.$/, ''));
  if (traits.length) parts.push(`traits: ${traits.join(', ')}`);
  return parts.join('; ').slice(0, 1000);
}

/** Every message id a profile rests on. */
export function profileSources(p: ProfileData): string[] {
  return [...new Set([...p.explicit_info, ...p.implicit_traits].flatMap((e) => e.source_message_ids))];
}
