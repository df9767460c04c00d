import type { Sql } from '../../core/db.js';
import { escapeRegExp } from '../../core/regexp.js';
import { NOT_THINGS } from './current-state.js';
import { queryLexemes } from './keyword.js';
import type { SearchScope } from './scope.js';

/**
 * The names of the asker's own things and people a question calls by what they are ("Is my
 * cat still alive?": her cat is Mochi; "What does my sister do?": Ines). What is told of them
 * later often uses the name alone ("Mochi passed away on Tuesday"), sharing no word with the
 * question: the name is the link between the two facts. Read from the owner's facts that name
 * the thing ("User's cat is named Mochi.", "User's sister Ines lives in Porto.", "a greyhound
 * named Pepper"), the shortest first: the best BM25 impacts of the word's postings, a bounded
 * index read whatever the store's size. The names' lexemes join the question's bridged terms
 * (service.ts bridge), a query of lower weight: "Is my cat still alive?" then finds the facts
 * about Mochi first, and among them the later change (current-state.ts changedSince).
 */

/** Facts read per word asked about. */
const FACTS_PER_WORD = 30;
/** Words asked about per question. */
const MAX_WORDS = 2;

/** Words between "my" and the thing that say which one, not what it is. */
const MODIFIERS = new Set(
  'little big older younger elder old new best favourite favorite first second third own current late dear'.split(
    ' ',
  ),
);

/** Capitalised words that are no one's name: the roles', months, weekdays (NOT_THINGS) and a sentence's opening article. */
const notName = (w: string) => NOT_THINGS.has(w) || ['i', 'the', 'a', 'an'].includes(w);

/** The things a question calls "my X" / "our X" ("my little brother": brother; "my cat's name": cat). */
export function ownThings(question: string): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(/\b(?:my|our)\s+([a-z]+)(?:'s)?(?:\s+([a-z]+)(?:'s)?)?/gi)) {
    const first = m[1]!.toLowerCase();
    const word = MODIFIERS.has(first) ? m[2]?.toLowerCase() : first;
    if (word && word.length > 2 && !out.includes(word)) out.push(word);
  }
  return out.slice(0, MAX_WORDS);
}

/**
 * The names a fact gives the thing `word` is: "User's cat Mochi", "User's cat is named Mochi",
 * "User's partner, Jonas,", "a three-year-old greyhound named Pepper" (for "dog": the name
 * given in the sentence that says what it is).
 */
export function namesIn(content: string, word: string): string[] {
  const w = `${escapeRegExp(word)}(?:s|es)?`;
  const patterns = [
    new RegExp(
      `(?:'s|s'|\\bmy|\\bour)\\s+(?:[a-z-]+\\s+)?${w},?\\s+(?:(?:is|was)\\s+)?(?:(?:named|called)\\s+)?(\\p{Lu}[\\p{L}'-]+)`,
      'gu',
    ),
    new RegExp(
      `(?:'s|s'|\\bmy|\\bour)\\s+(?:[a-z-]+\\s+)?${w}\\b[^.!?]{0,60}?\\b(?:named|called)\\s+(\\p{Lu}[\\p{L}'-]+)`,
      'gu',
    ),
  ];
  const out = new Set<string>();
  for (const re of patterns)
    for (const m of content.matchAll(re)) {
      const name = m[1]!.replace(/'s$/, '');
      if (!notName(name.toLowerCase())) out.add(name);
    }
  return [...out];
}

/**
 * The lexemes of the names the owner's facts give the things the question calls "my X": one
 * statement reading the facts, one for the names' lexemes when there are any; none for a
 * question without "my" / "our".
 */
export async function ownNames(q: Sql, scope: SearchScope, question: string): Promise<string[]> {
  const words = ownThings(question);
  if (!words.length) return [];
  const rows = await q.query<{ word: string; content: string }>(
    `SELECT w.word, f.content FROM jsonb_array_elements_text($5::jsonb) AS w(word)
     CROSS JOIN LATERAL (
       SELECT s.doc_id FROM search_postings s
       WHERE s.tenant_id = $1 AND s.app_id = $2 AND s.project_id = $3 AND s.kind = 'fact' AND s.owner_id = $4
         AND s.term = (SELECT lexeme FROM unnest(to_tsvector('english', w.word)) LIMIT 1)
       ORDER BY s.impact DESC, s.doc_id DESC LIMIT ${FACTS_PER_WORD}) p
     JOIN atomic_facts f ON f.tenant_id = $1 AND f.id = p.doc_id AND f.deleted_at IS NULL`,
    [scope.tenantId, scope.appId, scope.projectId, scope.ownerId, JSON.stringify(words)],
  );
  const names = [...new Set(rows.flatMap((r) => namesIn(r.content, r.word)))];
  return names.length ? queryLexemes(q, names.join(' ')) : [];
}
