/**
 * Salient phrases of a segment. Candidates are runs of content words between stopwords
 * and punctuation (as in RAKE); a word weighs by how often its stem recurs in the
 * segment (common verbs count little), a phrase by the mean weight of its words, a bit
 * more for longer phrases and for phrases that recur. Used for the episode subject and
 * summary.
 */
import { isContentWord, STOPWORDS, stem } from './text.js';

/** Evaluative words and adverbs that are frequent in chat but say nothing about the topic. */
const GENERIC = new Set(
  `amazing awesome great happy glad proud excited exciting inspiring important super lovely wonderful
beautiful fun hard tough cool sweet kind special nice best better love loved loving thankful grateful
appreciate appreciated cheers congrats congratulations guys folks bit little big huge totally journey
rewarding incredible fantastic perfect hope hoping glad sounds sound awesome enjoy enjoyed lucky stuff
kinda tho though cause gonna wanna yay wow hey thank thanks sure yeah pic photo picture together
someday everyday anyway definitely others people share moments moment times person already finally recently
lately usually currently basically literally seriously honestly`.split(/\s+/),
);

/** Counts and ranks: "two roommates" is about roommates, and "two" alone is no topic. */
const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten eleven twelve twenty first second third fourth fifth'.split(
    ' ',
  ),
);

/** Month and weekday names: resolved dates are everywhere, they are no topic. */
const CALENDAR = new Set(
  `january february march april may june july august september october november december monday tuesday
wednesday thursday friday saturday sunday weekend`.split(/\s+/),
);

/** Frequent verbs that rarely name a topic: they weigh a third. */
const COMMON_VERBS = new Set(
  `let keep take give put bring come ask try help need use find show call seem become start begin continue
check share talk talked spread reflect realize agree mean hear want like cherish motivate inspire tackle happen
change lift push build work looking doing having letting trying helping sharing talking making taking feels
reminds remind means matter matters guess wish believe understand learn learned express expressing`.split(
    /\s+/,
  ),
);

interface Candidate {
  words: string[];
  surface: string;
}

function candidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const chunk of text.split(/[.,!?;:()"—–\n]|\s-\s/)) {
    let run: string[] = [];
    let surface: string[] = [];
    const flush = (): void => {
      if (run.length > 0 && run.length <= 4) out.push({ words: run, surface: surface.join(' ') });
      run = [];
      surface = [];
    };
    for (const raw of chunk.split(/\s+/)) {
      const token = raw.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9+]+$/g, '');
      const w = token.toLowerCase().replace(/'s$/, '');
      if (
        !w ||
        STOPWORDS.has(w) ||
        GENERIC.has(w) ||
        CALENDAR.has(w) ||
        NUMBER_WORDS.has(w) ||
        !isContentWord(w) ||
        /^\d/.test(w)
      )
        flush();
      else {
        run.push(w);
        surface.push(token.replace(/'s$/, ''));
      }
    }
    flush();
  }
  return out;
}

/**
 * The top `k` key phrases of `texts`, best first, in their most common written form.
 * `exclude` drops phrases made only of those words (e.g. participant names). With `from`,
 * only phrases that occur in a text of `from` (texts of `texts`) are chosen, while every
 * text still counts each occurrence: a reply that repeats a phrase makes it weigh more
 * without offering its own.
 */
export function keyPhrases(
  texts: readonly string[],
  k: number,
  exclude: readonly string[] = [],
  from?: ReadonlySet<string>,
): string[] {
  const excluded = new Set(exclude.flatMap((e) => e.toLowerCase().split(/\s+/)));
  const freq = new Map<string, number>();
  const phrases = new Map<string, { count: number; words: string[]; forms: Map<string, number> }>();
  const eligible = new Set<string>();
  for (const text of texts) {
    for (const c of candidates(text)) {
      const words = c.words.filter((w) => !excluded.has(w));
      if (words.length === 0) continue;
      const stems = words.map(stem);
      for (const s of stems) freq.set(s, (freq.get(s) ?? 0) + 1);
      const key = stems.join(' ');
      if (from?.has(text)) eligible.add(key);
      const p = phrases.get(key) ?? { count: 0, words, forms: new Map<string, number>() };
      p.count++;
      const form = c.words.length === words.length ? c.surface : words.join(' ');
      p.forms.set(form, (p.forms.get(form) ?? 0) + 1);
      phrases.set(key, p);
    }
  }
  if (from) for (const key of phrases.keys()) if (!eligible.has(key)) phrases.delete(key);
  const weight = (w: string): number =>
    (freq.get(stem(w)) ?? 0) * (COMMON_VERBS.has(w) || COMMON_VERBS.has(stem(w)) ? 0.3 : 1);
  const scored = [...phrases.entries()].map(([key, p]) => {
    const sum = p.words.reduce((acc, w) => acc + weight(w), 0);
    return { key, p, score: (sum / p.words.length ** 0.4) * (1 + 0.5 * Math.log(p.count)) };
  });
  scored.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1));
  const chosen: { key: string; form: string }[] = [];
  for (const { key, p } of scored) {
    if (chosen.length >= k) break;
    // Skip a phrase contained in (or containing) one already chosen.
    if (chosen.some((c) => ` ${c.key} `.includes(` ${key} `) || ` ${key} `.includes(` ${c.key} `))) continue;
    const form = [...p.forms.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? key;
    chosen.push({ key, form });
  }
  return chosen.map((c) => c.form);
}
