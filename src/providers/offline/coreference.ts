import type { ExtractedFact } from '../../core/ports.js';
import type { MessageView } from './analyze.js';

/**
 * "they" / "them" in a fact, linked to the group it stands for. A reply such as "They loved
 * the aquarium" makes a fact that never names who loved it, so a question about "her
 * nephews" cannot find it by any word. When the conversation just before the pronoun names a
 * group with a determiner ("took my nephews to ...", "the twins were ..."), the fact's first
 * they/them is followed by that group in brackets: "They (Ana's nephews) loved the aquarium".
 * The group is looked for in the fact's first message before its own pronoun, then in the
 * two messages before it, nearest first; a fact that names a group before its pronoun keeps
 * its text.
 */
const PRONOUN = /\b(?:they|them)\b/i;

/**
 * A determiner, at most two modifiers, a plural noun ("the twins", "my two older sisters").
 * Not "their": it is itself a pronoun of a group, so "their faces" names no group that a
 * later "they" could stand for.
 */
const GROUP =
  /\b(the|my|our|your|his|her|these|those|both)\s+((?:[a-z][a-z-]*\s+){0,2}?)(children|people|men|women|[a-z]{2,}[^s'\W]s)\b/gi;

/** Plural-looking words that are not nouns of a group. */
const NOT_NOUNS = new Set(
  'always sometimes perhaps besides whereas thanks news series species means lots days years times hours minutes weeks months ways things stuff results'.split(
    ' ',
  ),
);

/** The groups named in `text`, in order (matches of GROUP whose noun is one). */
const groupsIn = (text: string) =>
  [...text.matchAll(GROUP)].filter((m) => !NOT_NOUNS.has((m[3] ?? '').toLowerCase()));

/** The last group named in `text`, rendered from the point of view of a third person. */
function lastGroup(text: string, view: MessageView): string | null {
  let found: string | null = null;
  for (const m of groupsIn(text)) {
    const [, det, mods, noun] = m as unknown as [string, string, string, string];
    const d = det.toLowerCase();
    const owner =
      d === 'my' || d === 'our'
        ? `${view.speaker}'s`
        : d === 'your'
          ? view.addressee
            ? `${view.addressee}'s`
            : null
          : d;
    if (owner === null) continue;
    found = `${owner} ${mods}${noun}`.replace(/\s+/g, ' ');
  }
  return found;
}

/** The group a pronoun in message `k` (at `before` characters, or after its whole text) points back to. */
function referent(views: readonly MessageView[], k: number, before: number | null): string | null {
  for (let j = k, seen = 0; j >= 0 && seen < 3; j--) {
    const v = views[j];
    if (!v || v.msg.role === 'tool') continue;
    seen++;
    const text = v.msg.content;
    const group = lastGroup(j === k && before !== null ? text.slice(0, before) : text, v);
    if (group) return group;
  }
  return null;
}

/** The facts with their first they/them followed by the group it stands for, when one is named just before. */
export function linkGroups(facts: readonly ExtractedFact[], views: readonly MessageView[]): ExtractedFact[] {
  const index = new Map(views.map((v, i) => [v.msg.id, i]));
  return facts.map((f) => {
    const m = PRONOUN.exec(f.content);
    if (!m) return f;
    if (groupsIn(f.content.slice(0, m.index)).length > 0) return f;
    const first = Math.min(...f.message_ids.map((id) => index.get(id) ?? Number.POSITIVE_INFINITY));
    if (!Number.isFinite(first)) return f;
    const own = PRONOUN.exec(views[first]!.msg.content);
    const group = referent(views, first, own ? own.index : null);
    if (!group) return f;
    const at = m.index + m[0].length;
    return { ...f, content: `${f.content.slice(0, at)} (${group})${f.content.slice(at)}` };
  });
}
