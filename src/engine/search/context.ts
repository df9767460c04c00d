import { messageText } from '../../contract/common.js';
import type { SearchData } from '../../contract/search.js';
import { speakerLabel } from '../../core/senders.js';
import { clip, contentWords, excerpt, tokenCount } from '../text.js';
import { conciseFact } from './concise.js';

/**
 * The context a model pays for: a search's hits cut into small units that each fit a
 * budget on their own (an atomic fact, a message turn, a profile item, an agent case or
 * skill, and whatever the caller adds, such as knowledge-base topics), ranked together by
 * score and packed into a token budget with a strict fit: a unit goes in whole or not at
 * all, and packing moves on to the next unit when one does not fit. A fact or turn that
 * only repeats the units taken is skipped (repeats). The scores are the search's (which
 * already weighs hits about someone other than the people a question names lower, people.ts).
 *
 * Tokens are counted as everywhere in engram: ceil(characters / 4).
 */
export type UnitKind = 'profile' | 'fact' | 'message' | 'episode' | 'agent_case' | 'agent_skill' | 'topic';

export interface ContextUnit {
  kind: UnitKind;
  /** The memory the unit comes from (fact, message, episode, profile item, case, skill or topic id). */
  id: string;
  /** The rendered line(s), without a trailing newline. */
  text: string;
  /** Rank score; units are packed best first. */
  score: number;
  /** Ids of the messages the unit rests on. */
  sources: string[];
  /**
   * A profile item that shares no word with the question: it comes first like every profile
   * item, but such items take at most PROFILE_ASIDE_SHARE of the budget between them.
   */
  aside?: boolean;
}

/** How the units of a search answer are cut and weighed. */
export interface UnitOptions {
  /** A turn's rank against a fact of the same score. */
  messageWeight: number;
  /** Prefix facts with the day of their episode. */
  factDay: boolean;
  /** Add a short view of each episode (subject, capped summary, its best facts) at this share of its score; 0 = none. */
  viewWeight: number;
}

export const DEFAULT_UNITS: UnitOptions = { messageWeight: 0.9, factDay: false, viewWeight: 0 };
/**
 * The keyword route's scores are raw BM25, unbounded and counted against each kind's own
 * statistics: a turn there weighs less against a fact.
 */
export const KEYWORD_UNITS: UnitOptions = { ...DEFAULT_UNITS, messageWeight: 0.5 };

/** `degraded_reason` of an answer given by the keyword route because the embedder failed (service.ts). */
export const EMBEDDER_UNAVAILABLE = 'embedder unavailable';

/**
 * The unit options for an answer: a keyword answer's, or one whose embedder failed (a hybrid
 * or agentic answer then carries the keyword route's raw BM25 scores), are KEYWORD_UNITS.
 */
export const unitsFor = (meta: Pick<SearchData['metadata'], 'method' | 'degraded_reason'>) =>
  meta.method === 'keyword' || meta.degraded_reason === EMBEDDER_UNAVAILABLE ? KEYWORD_UNITS : DEFAULT_UNITS;

/** The closing line of a context that left units out. */
const omittedNote = (n: number) => `(${n} more omitted to fit max_tokens)`;
/** Room a unit leaves for the closing line (and its line break) at any budget. */
const NOTE_ROOM = omittedNote(99_999).length + 1;

/**
 * The share of the budget that profile items not about the question may take: a profile of a
 * hundred items would otherwise fill any context before the first fact.
 */
export const PROFILE_ASIDE_SHARE = 0.25;

/** Longest summary in an episode view, longest turn and longest fact, in characters. */
const VIEW_SUMMARY_CHARS = 240;
const TURN_CHARS = 480;
const FACT_CHARS = 400;
/** Facts listed in an episode view. */
const VIEW_FACTS = 2;

const day = (iso: string) => iso.slice(0, 10);

/**
 * Every unit of a search answer, best first (profile items lead, in their own order: those
 * about the question, then the others, which take at most PROFILE_ASIDE_SHARE). With
 * `maxChars` (the budget the units are packed into), a fact or turn longer than the budget
 * less the closing line is cut to fit it: at the smallest budget a long turn still shows its
 * part about the question instead of nothing.
 */
export function contextUnits(
  data: SearchData,
  opts: UnitOptions = unitsFor(data.metadata),
  maxChars = Number.POSITIVE_INFINITY,
): ContextUnit[] {
  const units: ContextUnit[] = [];
  const room = (prefix: string, cap: number) =>
    Math.max(40, Math.min(cap, maxChars - NOTE_ROOM - prefix.length));
  const about = profileMatcher(data);
  for (const p of data.profiles) {
    const d = p.profile_data;
    // An explicit item rests on the turns it was said in; a trait on counts over many turns it does not show.
    for (const [i, sources, label] of [
      ...d.explicit_info.map((i) => [i, i.source_message_ids ?? [], i.category] as const),
      ...d.implicit_traits.map((i) => [i, [], i.trait] as const),
    ]) {
      const unit: ContextUnit = {
        kind: 'profile',
        id: i.item_id,
        text: `- (profile) ${clip(i.description, room('- (profile) ', 300))}`,
        score: Number.POSITIVE_INFINITY,
        sources: [...sources],
      };
      // Items about the question lead; the others follow them, before every other unit.
      if (!about(`${label} ${i.description}`)) Object.assign(unit, { aside: true, score: Number.MAX_VALUE });
      units.push(unit);
    }
  }
  for (const e of data.episodes) {
    const prefix = opts.factDay ? `[${day(e.timestamp)}] ` : '';
    for (const f of e.atomic_facts)
      units.push({
        kind: 'fact',
        id: f.id,
        text: `- ${prefix}${clip(conciseFact(f.content), room(`- ${prefix}`, FACT_CHARS))}`,
        score: f.score,
        sources: f.source_message_ids,
      });
    if (opts.viewWeight > 0) {
      const facts = e.atomic_facts.slice(0, VIEW_FACTS);
      units.push({
        kind: 'episode',
        id: e.id,
        text:
          `- [${day(e.timestamp)}] ${clip(e.subject, 120)}: ${clip(e.summary, VIEW_SUMMARY_CHARS)} (episode ${e.id})` +
          facts.map((f) => `\n  - ${clip(conciseFact(f.content), 300)}`).join(''),
        score: e.score * opts.viewWeight,
        sources: facts.flatMap((f) => f.source_message_ids),
      });
    }
  }
  // A long turn shows the part the question is about (the search's words), not only its start;
  // a turn of content items shows them as it is searched (messageText: "[image: kitten.jpg]").
  const asked = data.metadata.queries.join(' ');
  for (const m of [...data.messages, ...data.unprocessed_messages]) {
    const head = `- [${day(m.timestamp)}] ${speakerLabel(m)}: `;
    units.push({
      kind: 'message',
      id: m.id,
      text: `${head}${excerpt(messageText(m.content), asked, room(head, TURN_CHARS))}`,
      score: (m.score ?? 0) * opts.messageWeight,
      sources: [m.id],
    });
  }
  for (const c of data.agent_cases)
    units.push({
      kind: 'agent_case',
      id: c.id,
      text:
        `- [${day(c.timestamp)}] ${clip(c.task_intent, 240)} -> ${clip(c.approach, 400)}` +
        `${c.key_insight ? `; insight: ${clip(c.key_insight, 240)}` : ''} (agent_case ${c.id})`,
      score: c.score,
      sources: c.source_message_ids,
    });
  for (const s of data.agent_skills)
    units.push({
      kind: 'agent_skill',
      id: s.id,
      text: `- ${clip(s.name, 120)}: ${clip(s.description, 400)} (agent_skill ${s.id})`,
      score: s.score,
      sources: s.source_message_ids,
    });
  return rankUnits(units);
}

/** A word's key for matching a question's words: without its ending (lives, lived, living: liv), at most five letters. */
const matchKey = (w: string) =>
  w
    .replace(/(?:ing|ed|s)$/, '')
    .replace(/e$/, '')
    .slice(0, 5);

/**
 * Whether a profile item's text (its category and description) is about the question: it
 * shares a content word with what was asked, not counting words most of the profile's items
 * hold (the person's name, "User").
 */
function profileMatcher(data: SearchData): (text: string) => boolean {
  const texts = data.profiles.flatMap((p) => [
    ...p.profile_data.explicit_info.map((i) => `${i.category} ${i.description}`),
    ...p.profile_data.implicit_traits.map((i) => `${i.trait} ${i.description}`),
  ]);
  const keysOf = (t: string) => new Set([...contentWords(t)].map(matchKey));
  // Each item's keys, computed once: for the counts (every item, repeats too) and for the item.
  const keyed = texts.map((t) => [t, keysOf(t)] as const);
  const df = new Map<string, number>();
  for (const [, keys] of keyed) for (const k of keys) df.set(k, (df.get(k) ?? 0) + 1);
  const itemKeys = new Map(keyed);
  const asked = [...keysOf(data.metadata.queries.join(' '))].filter(
    (k) => texts.length < 4 || (df.get(k) ?? 0) <= texts.length / 2,
  );
  return (text) => {
    const keys = itemKeys.get(text) ?? keysOf(text);
    return asked.some((k) => keys.has(k));
  };
}

/** Units best first; equal scores keep their given order. */
export function rankUnits(units: readonly ContextUnit[]): ContextUnit[] {
  return units
    .map((u, i) => ({ u, i }))
    .sort((a, b) => b.u.score - a.u.score || a.i - b.i)
    .map(({ u }) => u);
}

export interface PackedContext {
  text: string;
  tokens: number;
  /** Units taken, in order. */
  units: ContextUnit[];
  /** Units left out for room (not those skipped for repeating what was taken). */
  omitted: number;
}

/**
 * Packs units (best first) into maxTokens with a strict fit; the text is at most maxTokens.
 * When units are left out for room, a closing line says how many, and only its own length
 * is kept free for it (the longest it can be for these units): the units get the rest.
 */
export function packContext(units: readonly ContextUnit[], maxTokens: number): PackedContext {
  const limit = maxTokens * 4;
  let packed = fill(units, limit);
  if (packed.tooLong > 0) packed = fill(units, Math.max(0, limit - omittedNote(units.length).length - 1));
  const taken = packed.taken;
  const omitted = packed.tooLong;
  let text = taken.map((u) => u.text).join('\n');
  if (omitted > 0) {
    const note = `${text ? '\n' : ''}${omittedNote(omitted)}`;
    if (text.length + note.length <= limit) text += note;
  }
  return { text, tokens: tokenCount(text), units: taken, omitted };
}

/**
 * Whether a fact or turn only repeats the units taken: every message it rests on is shown
 * already through a fact or turn (a fact made from a turn shown, or the reverse), or, for a
 * fact, through profile items that hold every word it has. A profile item is a line about the
 * person: a turn of its message, or a fact of it that tells more ("The vet said Miso needs a
 * kidney diet." beside "Kim has a dog named Miso."), is shown.
 */
function repeats(u: ContextUnit, shown: ReadonlyMap<string, ContextUnit[]>): boolean {
  if ((u.kind !== 'fact' && u.kind !== 'message') || !u.sources.length) return false;
  const on = u.sources.map((s) => shown.get(s) ?? []);
  if (on.every((units) => units.some((t) => t.kind !== 'profile'))) return true;
  if (u.kind === 'message' || on.some((units) => !units.length)) return false;
  const told = new Set(on.flatMap((units) => units.flatMap((t) => [...contentWords(t.text)].map(matchKey))));
  return [...contentWords(u.text)].every((w) => told.has(matchKey(w)));
}

/**
 * The units (best first) that fit in `budget` characters, one per line, strictly; a fact or
 * turn that only repeats the units taken (repeats), or says what one taken says in the same
 * words on another day (twinKey), is skipped. tooLong: units left out for room.
 */
function fill(units: readonly ContextUnit[], budget: number): { taken: ContextUnit[]; tooLong: number } {
  const taken: ContextUnit[] = [];
  /** Message id -> the units taken that rest on it. */
  const shown = new Map<string, ContextUnit[]>();
  /** A fact's or turn's words (twinKey) -> the unit taken that says them. */
  const said = new Map<string, ContextUnit>();
  const rests = (s: string, u: ContextUnit) => shown.set(s, [...(shown.get(s) ?? []), u]);
  let chars = 0;
  let aside = 0;
  let tooLong = 0;
  for (const u of units) {
    if (repeats(u, shown)) continue;
    const key = twinKey(u);
    const twin = key === undefined ? undefined : said.get(key);
    if (twin) {
      // The same words again (a question asked twice, advice given twice): the line taken
      // stands for both, and rests on the messages of both.
      for (const s of u.sources)
        if (!twin.sources.includes(s)) {
          twin.sources.push(s);
          rests(s, twin);
        }
      continue;
    }
    const add = u.text.length + (taken.length ? 1 : 0);
    if (chars + add > budget || (u.aside && aside + add > budget * PROFILE_ASIDE_SHARE)) {
      tooLong++;
      continue;
    }
    const t = { ...u, sources: [...u.sources] };
    taken.push(t);
    chars += add;
    if (t.aside) aside += add;
    if (key !== undefined) said.set(key, t);
    for (const s of t.sources) rests(s, t);
  }
  return { taken, tooLong };
}

/**
 * What a fact or turn says, for finding its twins: its line without the day, in lower case,
 * spaces collapsed. Other units have no twins.
 */
function twinKey(u: ContextUnit): string | undefined {
  if (u.kind !== 'fact' && u.kind !== 'message') return undefined;
  return u.text
    .replace(/^- (?:\[\d{4}-\d{2}-\d{2}\] )?/, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
