import { messageText } from '../../contract/common.js';
import type { SearchData } from '../../contract/search.js';
import { capitalisedWords, contentWords } from '../text.js';
import { lower, round } from './score.js';

/**
 * A question that names a person is about that person. The people a search answer knows
 * are the senders of its turns (their display names); the question names one when it uses
 * a word of that name, in any case ("what does nora collect", "What is Theo's job?"). A
 * fact or turn that names another of those people and none the question names is most
 * likely about someone else: its score counts at OTHER_PERSON_WEIGHT. A hit that names
 * nobody ("the user is vegetarian") keeps its score, and so does every hit when the
 * question names nobody, or names every one of the answer's people.
 */
export const OTHER_PERSON_WEIGHT = 0.8;

type Turn = SearchData['unprocessed_messages'][number];
type Episode = SearchData['episodes'][number];

/** The hits the step weighs: each episode's facts, and the turns. */
export interface PeopleHits {
  episodes: Episode[];
  messages: SearchData['messages'];
  unprocessed: Turn[];
}

/** The words of each distinct sender display name among the turns (a common word too: "Will"). */
export function answerPeople(turns: readonly Pick<Turn, 'sender_name'>[]): Set<string>[] {
  const byName = new Map<string, Set<string>>();
  for (const m of turns) {
    const name = m.sender_name?.trim().toLowerCase();
    if (!name || byName.has(name)) continue;
    const words = new Set((name.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1));
    if (words.size) byName.set(name, words);
  }
  return [...byName.values()];
}

/**
 * The words a text may name someone by: its content words, and a common word written
 * capitalised where no sentence opens ("What does Will collect?", "Bill", "May"), which the
 * content words leave out.
 */
export function namingWords(text: string): Set<string> {
  const out = contentWords(text);
  for (const w of capitalisedWords(text)) out.add(w);
  return out;
}

/**
 * The test for "about someone other than the people the question names", or undefined when
 * the question names nobody among the people, or all of them.
 */
export function aboutSomeoneElse(
  query: string,
  people: readonly Set<string>[],
): ((text: string) => boolean) | undefined {
  const asked = namingWords(query);
  const named = new Set<string>();
  const others: Set<string>[] = [];
  for (const p of people) {
    const used = [...p].filter((w) => asked.has(w));
    if (used.length) for (const w of used) named.add(w);
    else others.push(p);
  }
  if (!named.size || !others.length) return undefined;
  const otherWords = [...new Set(others.flatMap((p) => [...p]))].filter((w) => !named.has(w));
  return (text) => {
    const words = namingWords(text);
    return ![...named].some((w) => words.has(w)) && otherWords.some((w) => words.has(w));
  };
}

/** A turn's text as the step reads it: who said it (not opening a sentence: namingWords) and what. */
const turnText = (m: Turn) => `said by ${m.sender_name ?? ''}: ${messageText(m.content)}`;

const lowered = (s: number, weight: number) => round(lower(s, weight));
/** Best score first; equal scores keep their order (Array.prototype.sort is stable). */
const byScore = <T extends { score?: number | undefined }>(xs: T[]) =>
  xs.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));

/**
 * The hits with the scores of the facts and the turns `low` picks lowered to `weight`, each
 * list re-sorted best first (unscored turns, such as a pinned session's, are left as they
 * are). Episodes keep their scores and order.
 */
export function lowerHits<T extends PeopleHits>(
  hits: T,
  low: { fact: (f: Episode['atomic_facts'][number]) => boolean; turn: (m: Turn) => boolean },
  weight: number,
): T {
  const turns = <M extends Turn>(xs: M[]): M[] =>
    xs.some((m) => m.score === undefined)
      ? xs
      : byScore(xs.map((m) => (low.turn(m) ? { ...m, score: lowered(m.score!, weight) } : m)));
  return {
    ...hits,
    episodes: hits.episodes.map((e) => ({
      ...e,
      atomic_facts: byScore(
        e.atomic_facts.map((f) => (low.fact(f) ? { ...f, score: lowered(f.score, weight) } : f)),
      ),
    })),
    messages: turns(hits.messages),
    unprocessed: turns(hits.unprocessed),
  };
}

/**
 * The hits with the scores of the facts and turns about someone other than the people the
 * question names lowered to `weight`, each list re-sorted best first (see lowerHits).
 */
export function focusOnNamedPeople<T extends PeopleHits>(
  query: string,
  hits: T,
  weight = OTHER_PERSON_WEIGHT,
): T {
  const other = aboutSomeoneElse(query, answerPeople([...hits.messages, ...hits.unprocessed]));
  if (!other) return hits;
  return lowerHits(hits, { fact: (f) => other(f.content), turn: (m) => other(turnText(m)) }, weight);
}
