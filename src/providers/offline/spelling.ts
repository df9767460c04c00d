/**
 * A person's chat spelling written out, so the rest of the extractor reads it as it reads
 * careful text: contractions typed without their apostrophe ("i dont know", "im training",
 * "whats a good pace"), a few chat forms ("u", "pls", "thx") and the lowercase names of months
 * and weekdays ("in september", "flying out thursday"), which date resolution reads by their
 * capital. Only forms that are no other word: "its", "id" and "ill" by the word after them
 * (BY_NEXT), never "were", "well", "shell", "hell", "lets", "wed", nor "may", "march" and
 * "august", which lowercase are other words, but after a word that takes a month ("in august",
 * MONTH_AFTER).
 */

const CONTRACTIONS: Record<string, string> = {
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  cant: "can't",
  wont: "won't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  hadnt: "hadn't",
  couldnt: "couldn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  im: "I'm",
  ive: "I've",
  youre: "you're",
  youve: "you've",
  youll: "you'll",
  theyre: "they're",
  theyve: "they've",
  shes: "she's",
  whats: "what's",
  thats: "that's",
  theres: "there's",
  heres: "here's",
  u: 'you',
  pls: 'please',
  plz: 'please',
  thx: 'thanks',
};

const NAMES =
  'january february april june july september october november december monday tuesday wednesday thursday friday saturday sunday';
const CAPITALISED = new Set(NAMES.split(' '));

const WORD = new RegExp(
  `\\b(?:${[...Object.keys(CONTRACTIONS), ...CAPITALISED].join('|')})\\b(?!['’-])`,
  'gi',
);

/**
 * "its", "id", "ill" typed for "it's", "I'd", "I'll", told by the word after them: "its going
 * to cost", "id love to", "ill be there" (not "its tail", "an ill cat").
 */
const BY_NEXT: [RegExp, string][] = [
  [
    /\bits(?= (?:going|gonna|been|a|an|the|so|not|really|just|ok|okay|fine|great|good|bad|hard|too|very|getting|always|never|still|all|my|our|your|like|kinda|pretty|only|about|over|time|raining|cold|hot|late|early)\b)/g,
    "it's",
  ],
  [/\bid(?= (?:love|like|rather|prefer|be|have|need|say|go|never|probably|really|also)\b)/g, "I'd"],
  [
    /\bill(?= (?:be|try|do|have|need|probably|just|send|let|get|go|take|check|make|call|see|look|keep|never|always|definitely|start|bring|ask|tell|write|pick|give)\b)/g,
    "I'll",
  ],
];

/**
 * "may", "march" and "august" typed in lowercase after a word that takes a month: "in august",
 * "since may", "early march", "next august". Elsewhere they are other words ("it may rain").
 */
const MONTH_AFTER =
  /\b(in|since|until|till|by|from|early|late|mid|next|last|through|before|after)(\s+)(may|march|august)\b(?!['’-])/g;

/** `text` with a person's chat spelling written out (see the module's comment). */
export function chatSpelling(text: string): string {
  let out = text.replace(
    MONTH_AFTER,
    (_m, before: string, space: string, month: string) =>
      `${before}${space}${month[0]!.toUpperCase()}${month.slice(1)}`,
  );
  for (const [re, full] of BY_NEXT) out = out.replace(re, full);
  return out.replace(WORD, (w, offset: number, all: string) => {
    // A letter after an apostrophe is the word's own ("rock'n'roll"), not a contraction; a
    // "u" after a number is a unit ("10 u of insulin").
    if (offset > 0 && /['’]/.test(all[offset - 1] ?? '')) return w;
    const lower = w.toLowerCase();
    if (lower === 'u' && /\d\s$/.test(all.slice(Math.max(0, offset - 2), offset))) return w;
    if (CAPITALISED.has(lower)) return w === lower ? lower[0]!.toUpperCase() + lower.slice(1) : w;
    // As typed in lowercase or opening a sentence ("Dont worry"); not in capitals ("IM", "THX"),
    // nor a capital "U" (a letter, a grade).
    const opening = w === lower[0]!.toUpperCase() + lower.slice(1);
    if (w !== lower && (!opening || lower === 'u')) return w;
    const full = CONTRACTIONS[lower]!;
    return w === lower ? full : full[0]!.toUpperCase() + full.slice(1);
  });
}
