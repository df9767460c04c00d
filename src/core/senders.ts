import type { SegmentMessage } from './ports.js';

/** An id that reads as a name ("carol", "Mary-Jane"), not a handle ("u-42", "user_17", a uuid). */
export const NAME_LIKE = /^\p{L}+(?:['’ -]\p{L}+)*$/u;
/** Ids that are a role, not a name. */
export const ROLE_IDS = new Set(['user', 'human', 'assistant', 'ai', 'bot', 'agent', 'model', 'system']);
/** What a sender known by a handle alone is called, by role. */
export const ROLE_NAMES: readonly [SegmentMessage['role'], string][] = [
  ['user', 'User'],
  ['assistant', 'Assistant'],
];

/** A sender id that is a handle or a role word ("u-42", "assistant"), not a name. */
export const isHandle = (senderId: string) =>
  !NAME_LIKE.test(senderId) || ROLE_IDS.has(senderId.toLowerCase());

/**
 * Who said a turn, for a reader: its sender_name, else a name-like id as it is ("carol"),
 * else the role ("User" for "u-42", "Assistant" for "assistant"), as the extractor's facts call
 * such a sender.
 */
export function speakerLabel(m: { sender_id: string; sender_name?: string | null; role: string }): string {
  const name = m.sender_name?.trim();
  if (name) return name;
  if (!isHandle(m.sender_id)) return m.sender_id;
  return ROLE_NAMES.find(([role]) => role === m.role)?.[1] ?? m.sender_id;
}
