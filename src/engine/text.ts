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
  return (out || text.slice(0, maxChars)).trim();
}

export function sentences(text: string): string[] {
  return (text.match(/[^.!?\n]+[.!?]*/g) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}
