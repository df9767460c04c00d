/**
 * A person's chat spelling written out, so the rest of the extractor reads it as it reads
 * careful text: contractions typed without their apostrophe ("i dont know", "im training",
 * "whats a good pace"), a few chat forms ("u", "pls", "thx") and the lowercase names of months
 * and weekdays ("in september", "flying out thursday"), which date resolution reads by their
 * capital. Only forms that are no other word: not "its", "ill", "id", "were", "well", "shell",
 * "hell", "lets", "wed", nor "may", "march" and "august", which lowercase are other words.
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

/** `text` with a person's chat spelling written out (see the module's comment). */
export function chatSpelling(text: string): string {
  return text.replace(WORD, (w, offset: number, all: string) => {
    // A letter after an apostrophe is the word's own ("rock'n'roll"), not a contraction.
    if (offset > 0 && /['’]/.test(all[offset - 1] ?? '')) return w;
    const lower = w.toLowerCase();
    if (CAPITALISED.has(lower)) return w === lower ? lower[0]!.toUpperCase() + lower.slice(1) : w;
    // As typed in lowercase or opening a sentence ("Dont worry"); not in capitals ("IM", "THX"),
    // nor a capital "U" (a letter, a grade).
    const opening = w === lower[0]!.toUpperCase() + lower.slice(1);
    if (w !== lower && (!opening || lower === 'u')) return w;
    const full = CONTRACTIONS[lower]!;
    return w === lower ? full : full[0]!.toUpperCase() + full.slice(1);
  });
}
