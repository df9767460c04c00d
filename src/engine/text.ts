/** Small text utilities shared by the engine (tokens, similarity, sentence cuts). */
const STOP = new Set(
  'a an the and or but if of to in on at for with by from as is are was were be been being it its this that these those i me my you your he him his she her we our they them their what which who whom do does did have has had not no so than too very can will just about into over also then there here'.split(
    ' ',
  ),
);

/** Lowercase content words (stopwords and 1-char tokens dropped). */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    if (w.length > 1 && !STOP.has(w)) out.add(w);
  return out;
}

/**
 * The words of a text written capitalised where no sentence opens ("What does Will collect?":
 * will; "O'Brien"; not "What", "I" or "US"), lower-cased, a trailing "'s" cut: the words it
 * names someone or something by, which a stop-word list may hold.
 */
export function capitalisedWords(text: string): string[] {
  const out: string[] = [];
  let opening = true;
  for (const [t] of text.matchAll(/[.!?:]|[\p{L}\p{N}'’]+/gu)) {
    if (/^[.!?:]$/.test(t)) opening = true;
    else {
      const w = t.replace(/['’]s$/u, '');
      if (!opening && /^\p{Lu}.*\p{Ll}/u.test(w)) out.push(w.toLowerCase());
      opening = false;
    }
  }
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Tokens counted the way engram budgets text everywhere: ceil(characters / 4). */
export const tokenCount = (text: string): number => Math.ceil(text.length / 4);

/** The first sentences of text, up to maxChars. */
export function leadSentences(text: string, maxChars: number): string {
  const sentences = text.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [text];
  let out = '';
  for (const s of sentences) {
    if ((out + s).length > maxChars) break;
    out += s;
  }
  return (out || cut(text, maxChars)).trim();
}

export function sentences(text: string): string[] {
  return (text.match(/[^.!?\n]+[.!?]*/g) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The first n UTF-16 units of s, one fewer when the cut would split a surrogate pair (an emoji). */
export function cut(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/** Text on one line, white space folded, cut to n characters with … when longer. */
export const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${cut(t, n - 1)}…`;
};

/** Two words match when equal or, both of 5 letters or more, when their first 5 letters are (learning / learned). */
const wordKey = (w: string) => (w.length >= 5 ? w.slice(0, 5) : w);

/**
 * At most maxChars of text, about what `query` asks: the text itself when it fits; otherwise
 * the run of whole sentences around the one holding the most of the query's content words
 * (the sentences after it first, then those before), cut marks (…) where it starts or ends
 * inside the text. A text holding none of them gives its start, as a plain cut would.
 */
export function excerpt(text: string, query: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  const parts = flat.match(/[^.!?]+(?:[.!?]+["')\]]*|$)\s*/g)?.map((s) => s.trim()) ?? [flat];
  const asked = new Set([...contentWords(query)].map(wordKey));
  const hits = parts.map((p) => [...contentWords(p)].filter((w) => asked.has(wordKey(w))).length);
  // (a loop, not Math.max(...hits): a turn can hold more sentences than a call has arguments)
  let best = 0;
  for (let i = 1; i < hits.length; i++) if (hits[i]! > hits[best]!) best = i;
  if (!asked.size || hits[best]! === 0) return clip(flat, maxChars);
  let from = best;
  let to = best;
  // Room for the marks: one before when the run starts past the text's start, one after likewise.
  const size = (a: number, b: number) =>
    parts.slice(a, b + 1).join(' ').length + (a > 0 ? 2 : 0) + (b < parts.length - 1 ? 2 : 0);
  if (size(from, to) > maxChars)
    return `${from > 0 ? '… ' : ''}${clip(parts[best]!, maxChars - (from > 0 ? 2 : 0))}`;
  for (let grown = true; grown; ) {
    grown = false;
    if (to + 1 < parts.length && size(from, to + 1) <= maxChars) {
      to++;
      grown = true;
    } else if (from > 0 && size(from - 1, to) <= maxChars) {
      from--;
      grown = true;
    }
  }
  return `${from > 0 ? '… ' : ''}${parts.slice(from, to + 1).join(' ')}${to < parts.length - 1 ? ' …' : ''}`;
}
