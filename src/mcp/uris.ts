import type { MemoryChange } from '../engine/events.js';
import type { OwnerKind } from '../engine/memory/owners.js';
import type { ItemKind } from './catalog.js';

/**
 * engram resource URIs. Every variable segment is percent-encoded (encodeURIComponent),
 * so ids holding `@`, `+`, `/` or spaces stay one segment:
 *   engram://{app_id}/{project_id}/users/{user_id}/episodes | /profile
 *   engram://{app_id}/{project_id}/agents/{agent_id}/cases | /skills
 *   engram://{app_id}/{project_id}/episodes|cases|skills/{id}
 * Collections take `?page=N&page_size=M`; subscriptions ignore the query. Memory ids are
 * hex and compared in lower case.
 */
export type ResourceRef =
  | { type: 'owner'; kind: OwnerKind; appId: string; projectId: string; owner: string }
  | { type: 'item'; kind: ItemKind; appId: string; projectId: string; id: string };

export const OWNER_KINDS: readonly OwnerKind[] = ['episodes', 'profile', 'cases', 'skills'];
const ITEM_KINDS: readonly ItemKind[] = ['episodes', 'cases', 'skills'];
const ownerSegment = (kind: OwnerKind) => (kind === 'episodes' || kind === 'profile' ? 'users' : 'agents');
const enc = encodeURIComponent;

export function formatUri(ref: ResourceRef): string {
  const base = `engram://${enc(ref.appId)}/${enc(ref.projectId)}`;
  return ref.type === 'owner'
    ? `${base}/${ownerSegment(ref.kind)}/${enc(ref.owner)}/${ref.kind}`
    : `${base}/${ref.kind}/${enc(ref.id)}`;
}

export interface ParsedUri {
  ref: ResourceRef;
  query: URLSearchParams;
}

/** The resource a URI names, or undefined when it names none. */
export function parseUri(uri: string): ParsedUri | undefined {
  const m = /^engram:\/\/([^?#]*)(?:\?([^#]*))?$/.exec(uri);
  if (!m) return undefined;
  let parts: string[];
  try {
    parts = (m[1] ?? '').split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (parts.some((p) => p === '')) return undefined;
  const query = new URLSearchParams(m[2] ?? '');
  const [appId, projectId, a, b, c] = parts as [string, string, string?, string?, string?];
  if (parts.length === 5) {
    const kind = c as OwnerKind;
    if (OWNER_KINDS.includes(kind) && a === ownerSegment(kind))
      return { ref: { type: 'owner', kind, appId, projectId, owner: b! }, query };
  }
  if (parts.length === 4 && ITEM_KINDS.includes(a as ItemKind))
    return { ref: { type: 'item', kind: a as ItemKind, appId, projectId, id: b!.toLowerCase() }, query };
  return undefined;
}

/** The URIs whose contents a committed change alters. */
export function urisForChange(change: MemoryChange): string[] {
  const kind: OwnerKind | undefined = {
    episode: 'episodes' as const,
    profile: 'profile' as const,
    agent_case: 'cases' as const,
    agent_skill: 'skills' as const,
    message: undefined,
  }[change.kind];
  if (!kind) return [];
  const scope = { appId: change.appId, projectId: change.projectId };
  const uris = change.ownerIds.map((owner) => formatUri({ type: 'owner', kind, ...scope, owner }));
  if (kind !== 'profile')
    for (const id of change.ids) uris.push(formatUri({ type: 'item', kind, ...scope, id }));
  return uris;
}
