import type { SearchData } from '../../contract/search.js';
import { contentWords } from '../text.js';
import type { ContextUnit } from './context.js';

/**
 * A question that names a person is about that person. The people an answer knows are the
 * senders of its turns (their display names); the question names one when it uses a word of
 * that name ("what does nora collect", "What is Theo's job?"). A fact or turn that names
 * another of those people and none the question names is most likely about someone else:
 * in the recall context it counts at OTHER_PERSON_WEIGHT of its score. A unit that names
 * nobody ("the user is vegetarian") keeps its score, and so does every unit when the
 * question names nobody, or names every one of the answer's people.
 */
export const OTHER_PERSON_WEIGHT = 0.8;

/** The words of each distinct sender display name among the answer's turns. */
export function answerPeople(data: Pick<SearchData, 'messages' | 'unprocessed_messages'>): Set<string>[] {
  const byName = new Map<string, Set<string>>();
  for (const m of [...data.messages, ...data.unprocessed_messages]) {
    const name = m.sender_name?.trim();
    if (!name || byName.has(name.toLowerCase())) continue;
    const words = contentWords(name);
    if (words.size) byName.set(name.toLowerCase(), words);
  }
  return [...byName.values()];
}

/**
 * The units with the score of those about someone other than the people the question
 * names lowered to OTHER_PERSON_WEIGHT (a new array; the units are not changed).
 */
export function focusOnNamedPeople(
  units: readonly ContextUnit[],
  query: string,
  people: readonly Set<string>[],
  weight = OTHER_PERSON_WEIGHT,
): ContextUnit[] {
  const asked = contentWords(query);
  const named = new Set<string>();
  const others: Set<string>[] = [];
  for (const p of people) {
    const used = [...p].filter((w) => asked.has(w));
    if (used.length) for (const w of used) named.add(w);
    else others.push(p);
  }
  if (!named.size || !others.length) return [...units];
  const otherWords = new Set(others.flatMap((p) => [...p]).filter((w) => !named.has(w)));
  return units.map((u) => {
    if (u.kind !== 'fact' && u.kind !== 'message') return u;
    const words = contentWords(u.text);
    const aboutNamed = [...named].some((w) => words.has(w));
    const aboutOther = [...otherWords].some((w) => words.has(w));
    if (aboutNamed || !aboutOther) return u;
    return { ...u, score: u.score >= 0 ? u.score * weight : u.score / weight };
  });
}
