/**
 * Text primitives for the offline extractor: normalisation, sentence splitting,
 * tokenising, stopwords and a light stemmer. Hand-written and deterministic so the
 * extractor needs no dependency, no network and no model.
 */

/** Straightens curly quotes and collapses whitespace (newlines become sentence breaks). */
export function normalize(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/[ \t\u00a0]+/g, ' ')
    .trim();
}

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'approx',
  'no',
  'u.s',
  'inc',
  'ltd',
  'co',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/**
 * Splits text into sentences on `.`, `!`, `?` (and runs of them) followed by whitespace,
 * and on line breaks; abbreviations, decimals, initials and dots of a pause before a word in
 * lower case do not end a sentence.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of normalize(text).split(/\s*\n+\s*/)) {
    let start = 0;
    const re = /[.!?]+["')\]]*(?=\s+|$)/g;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const end = m.index + m[0].length;
      const before = line.slice(start, m.index);
      const lastWord = (/([A-Za-z.]+)$/.exec(before)?.[1] ?? '').toLowerCase();
      // An initial ("J.") is a letter alone, not the unit of an amount ("$71k.", "10K.").
      const initial = /^[a-z]$/i.test(lastWord) && !/\d[A-Za-z]$/.test(before);
      const isAbbrev = m[0] === '.' && (ABBREVIATIONS.has(lastWord) || initial);
      if (isAbbrev) continue;
      const after = line.slice(end);
      if (insideQuote(m[0], before, after)) continue;
      // A pause, not an end: "... which is... a lot" goes on in lower case after its dots.
      // Not before a correction ("... in Leeds... no wait, in York"), which is a sentence of its own.
      if (/^\.{2,}$/.test(m[0]) && /^\s+\p{Ll}/u.test(after) && !CORRECTION.test(after.trimStart())) continue;
      // An inline list's number ("... three options: 1. Lentil soup. 2. ...") opens the next
      // sentence, not ends this one: it is dropped, and the sentence ends before it. Not the
      // minutes of a time ("from 5 to 6:30.").
      const marker = m[0] === '.' ? /(^|(?<!\d):)\s*\d{1,2}$/.exec(before) : null;
      if (marker) {
        const piece = line.slice(start, start + marker.index + (marker[1] ?? '').length).trim();
        if (piece) out.push(piece);
        start = end;
        continue;
      }
      const piece = line.slice(start, end).trim();
      if (piece) out.push(piece);
      start = end;
    }
    const rest = line.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}

/**
 * A mark that closes a quotation the sentence goes on after ("Translate 'how are you?' into
 * French"): the mark ends with the quote that an opening one earlier in the sentence
 * pairs with, and the words after it go on in lower case.
 */
function insideQuote(mark: string, before: string, after: string): boolean {
  const quote = mark.at(-1);
  if (quote !== '"' && quote !== "'") return false;
  if (!/^\s+\p{Ll}/u.test(after)) return false;
  const opening = quote === '"' ? /(?:^|[\s([])"(?=\S)/g : /(?:^|[\s([])'(?=\S)/g;
  let open = -1;
  for (let o = opening.exec(before); o !== null; o = opening.exec(before)) open = o.index + o[0].length;
  return open >= 0 && !before.slice(open).includes(`${quote} `);
}

/**
 * A question typed without its mark ("how do i make cold brew at home"): a sentence with no
 * closing punctuation that opens as a question does (a question word and a verb, or a verb
 * and its subject) gets a "?", so it is read as the question it is.
 */
export function markQuestion(sentence: string): string {
  if (/[.!?:;,…)\]"']\s*$/.test(sentence)) return sentence;
  return UNMARKED_QUESTION.test(sentence) || UNMARKED_TRAILING_QUESTION.test(sentence)
    ? `${sentence}?`
    : sentence;
}

/** A question left unmarked after a statement: "i'm gluten free now, what breakfast can i make". */
const UNMARKED_TRAILING_QUESTION =
  /,\s+(?:(?:so|and|but)\s+)?(?:how|what|where|when|why|which|who)\b(?:'s\b|(?:\s+[\w'-]+){0,3}?\s+(?:do|does|did|is|are|can|could|should|would|will)\s+(?:i|you|we|they|he|she|it|my)\b)[^,;.!?]*$/i;

const UNMARKED_QUESTION =
  /^(?:(?:how|what|where|when|why|which|who)(?:'s|\s+(?:do|does|did|is|are|was|were|can|could|should|would|will|much|many|long|often))|(?:can|could|would|will|should|do|does|did|is|are|was|were|have|has)\s+(?:you|i|we|it|there|they|he|she|my|this|that))\b/i;

/**
 * A correction of what was just said, opening a sentence: "No wait, ...", "Wait, no - ...",
 * "Sorry, I meant ...", "Scratch that, ...", "Actually, scratch that — ...". Not "I meant to
 * call you".
 */
const CORRECTION =
  /^(?:(?:no,?\s+wait|wait,?\s+no)(?:\s*[,:;!.\u2013\u2014-]+\s*|\s+)|(?:(?:actually|oh|oops|sorry),?\s+)?(?:sorry,?\s+i\s+mean[t]?|scratch\s+that|correction)\s*[,:;!.\u2013\u2014-]+\s*)(?=\S)/i;

/**
 * A message's sentences as meant: a sentence that corrects the one before it ("I'm driving to
 * my parents' in Braga... No wait, my parents live in Sacramento.") takes its place, without
 * its announcement; what was taken back is no memory.
 */
export function withCorrections(sentences: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const m = CORRECTION.exec(s);
    if (!m) {
      out.push(s);
      continue;
    }
    out.pop();
    out.push(capitalize(s.slice(m[0].length)));
  }
  return out;
}

/**
 * A sentence typed in capitals ("PASSED MY CPN EXAM TODAY!!!") in sentence case: each word in
 * capitals is lower-cased but "I" and one without a vowel (an acronym: "CPN", "HR", "TV"), and
 * the first letter is capitalised. A sentence with fewer than three words in capitals, or with
 * as many words in lower case as in capitals, or code ("SELECT * FROM orders WHERE ...",
 * "MAX_RETRIES"), is left as it is.
 */
export function unshout(sentence: string): string {
  const words = sentence.match(/\p{L}+/gu) ?? [];
  const loud = words.filter((w) => w.length > 1 && w === w.toUpperCase()).length;
  const quiet = words.filter((w) => w !== w.toUpperCase()).length;
  if (words.length < 3 || loud < 3 || loud <= quiet) return sentence;
  // Code is written in capitals, not shouted ("SELECT * FROM orders WHERE ...", "MAX_RETRIES").
  if (/[=*<>{}[\]]|\w_\w/.test(sentence)) return sentence;
  const out = sentence.replace(/\p{L}+/gu, (w) => {
    if (w !== w.toUpperCase() || w === 'I') return w;
    return /[AEIOUY]/.test(w) ? w.toLowerCase() : w;
  });
  return out.replace(/^(\P{L}*)(\p{Ll})/u, (_m, lead: string, c: string) => lead + c.toUpperCase());
}

/** Lower-cased word tokens (letters, digits, inner apostrophes, `+`, `-`). */
export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[\u2018\u2019\u02bc`]/g, "'")
      .match(/[a-z0-9]+(?:['+-][a-z0-9]+)*\+?/g) ?? []
  );
}

/** Function words plus conversational fillers: words that carry no topic. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against ain't all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself
let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out
over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their
theirs them themselves then there there's these they they'd they'll they're they've this those through to
too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
where's which while who who's whom why why's will with won't would wouldn't you you'd you'll you're you've
your yours yourself yourselves just really totally truly pretty quite very much many lot lots thing things
stuff yeah yes yep yup nope ok okay oh ah hey hi hello wow cool great awesome nice thanks thank please
sure well like also still even ever maybe actually definitely absolutely gonna wanna gotta kinda sorta
get got getting go going went make made making know knew think thought feel felt say said tell told
see saw look looks looking want wanted one ones way day time lol haha hmm um uh s t d ll re ve m
something anything everything nothing someone anyone everyone always never often sometimes now today
tomorrow yesterday week weeks month months year years ago last next soon again back good bad right
can could may might must shall should will would`.split(/\s+/),
);

/** True for a token that carries topic: not a stopword, not a bare number, 2+ letters. */
export function isContentWord(token: string): boolean {
  return token.length > 2 && !STOPWORDS.has(token) && !/^\d+$/.test(token);
}

/**
 * Light suffix stripping (plural, -ing, -ed, -ly, -ies) so that "fixing", "fixes" and
 * "fixed" meet; not a full Porter stemmer, just enough for lexical overlap.
 */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  else if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([bdfgmnprt])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** Stems of the content words of a text. */
export function contentStems(text: string): string[] {
  return tokenize(text).filter(isContentWord).map(stem);
}

/** Upper-cases the first letter. */
export function capitalize(s: string): string {
  return s.length === 0 ? s : s.charAt(0).toUpperCase() + s.slice(1);
}

/** Ends the text with sentence punctuation if it has none. */
export function terminate(s: string): string {
  const t = s.trim().replace(/[\s,;:–—-]+$/, '');
  return /[.!?]["')\]]?$/.test(t) ? t : `${t}.`;
}

/** Cuts text at a word boundary to at most `max` chars, marking the cut with an ellipsis. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, Math.max(0, max - 1));
  const at = cut.lastIndexOf(' ');
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** Joins items as "a", "a and b", "a, b and c". */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
