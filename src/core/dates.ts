import { HOLIDAY_MODIFIED, HOLIDAY_NAMES, holiday, holidayDate } from './holidays.js';
import { MONTHS, WEEKDAYS as WEEKDAY_NAMES } from './time.js';

/**
 * Absolute dates: formats a timestamp ("14 March 2024", UTC) and rewrites relative
 * expressions ("yesterday", "last Saturday", "next month", "two weeks ago") into absolute
 * ones anchored on it. The offline extractor anchors them on the message, so a fact stays
 * true when read months later; search anchors a question's on the time it is asked.
 */

export { MONTHS };

const WEEKDAYS = WEEKDAY_NAMES.map((w) => w.toLowerCase());
export const DAY_MS = 86_400_000;

/** "14 March 2024" for a Unix-ms timestamp, in UTC. */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "March 2024". */
export function formatMonth(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Calendar day (UTC midnight) of a timestamp: equal days give equal keys. */
export function dayKey(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** True when the text names an absolute date or a year. */
export function mentionsDate(text: string): boolean {
  return DATE_MENTION.test(text);
}
const DATE_MENTION = new RegExp(`\\b(?:${MONTHS.join('|')})\\b|\\b(?:19|20)\\d{2}\\b`);

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};
const VAGUE = /^(?:a few|few|a couple of|a couple|couple of|several)$/i;
export const NUM = String.raw`(\d{1,2}|a few|a couple of|a couple|couple of|several|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)`;
const PREP = String.raw`(?:\b(on|in|at|during|since|until|till|from|by|before|after|of|for|around)\s+)?`;

/** What a relative expression becomes: `phrase` stands alone, `bare` follows a preposition. */
interface Resolved {
  phrase: string;
  bare: string;
}

const onDay = (ms: number, part?: string): Resolved => {
  const bare = part ? `the ${part} of ${formatDate(ms)}` : formatDate(ms);
  return { phrase: `on ${bare}`, bare };
};
const inText = (bare: string): Resolved => ({ phrase: `in ${bare}`, bare });
const same = (text: string): Resolved => ({ phrase: text, bare: text });

/** The first day of the month `n` months after the month of `ms` (UTC). */
export function addMonths(ms: number, n: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
}

/** Monday of the Monday-to-Sunday week containing `day`. */
export function mondayOf(day: number): number {
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
}

/** Saturday of the Monday-to-Sunday week containing `day`. */
function saturdayOfWeek(day: number): number {
  return mondayOf(day) + 5 * DAY_MS;
}

function weekendOf(sat: number): string {
  const a = new Date(sat);
  const b = new Date(sat + DAY_MS);
  if (a.getUTCMonth() === b.getUTCMonth())
    return `the weekend of ${a.getUTCDate()}-${formatDate(sat + DAY_MS)}`;
  return `the weekend of ${formatDate(sat)}`;
}

function season(name: string, which: string, now: number): string {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const s = name === 'autumn' ? 'fall' : name;
  if (s === 'winter') {
    // Winter is labelled by the year of its December: "winter 2022/23".
    const current = m === 11 ? y : m <= 1 ? y - 1 : null;
    const year =
      current !== null
        ? current + (which === 'last' ? -1 : which === 'next' ? 1 : 0)
        : which === 'last'
          ? y - 1
          : y;
    return `winter ${year}/${String(year + 1).slice(2)}`;
  }
  const start = ({ spring: 2, summer: 5, fall: 8 } as Record<string, number>)[s] ?? 5;
  const year =
    // "next summer" is the one after "this summer", as "next Saturday" is the one after "this
    // Saturday": said in April 2025, summer 2026.
    which === 'last' ? (m > start + 2 ? y : y - 1) : which === 'next' ? y + 1 : y;
  return `${s} ${year}`;
}

/** The number a count in words or digits says ("two", "12"); null for a vague one ("a few"). */
export function count(word: string): number | null {
  if (VAGUE.test(word)) return null;
  return /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word.toLowerCase()] ?? 1);
}

type Rule = [RegExp, (now: number, m: RegExpExecArray) => Resolved];

function rules(): Rule[] {
  const wd = WEEKDAYS.join('|');
  return [
    // "We got married three years ago today": the same day, years, months or weeks before.
    [
      new RegExp(`${NUM} (week|month|year)s? ago (?:today|this very day)`),
      (t, m) => {
        const n = count(m[2] ?? '');
        const unit = m[3] ?? 'year';
        if (n === null) return same(m[0] ?? '');
        if (unit === 'week') return onDay(t - n * 7 * DAY_MS);
        const months = unit === 'year' ? 12 * n : n;
        const first = addMonths(t, -months);
        const last = new Date(addMonths(t, 1 - months) - DAY_MS).getUTCDate();
        return onDay(first + (Math.min(new Date(t).getUTCDate(), last) - 1) * DAY_MS);
      },
    ],
    [/the day before yesterday/, (t) => onDay(t - 2 * DAY_MS)],
    [/the day after tomorrow/, (t) => onDay(t + 2 * DAY_MS)],
    [/yesterday (morning|afternoon|evening|night)/, (t, m) => onDay(t - DAY_MS, m[2])],
    [/yesterday/, (t) => onDay(t - DAY_MS)],
    [/last night/, (t) => onDay(t - DAY_MS, 'night')],
    [/tomorrow (morning|afternoon|evening|night)/, (t, m) => onDay(t + DAY_MS, m[2])],
    [/tomorrow/, (t) => onDay(t + DAY_MS)],
    [/(?:earlier |later )?this (morning|afternoon|evening)/, (t, m) => onDay(t, m[2])],
    [/tonight/, (t) => onDay(t, 'night')],
    [/earlier today/, (t) => same(`earlier on ${formatDate(t)}`)],
    [/today/, (t) => onDay(t)],
    [/the other day/, (t) => same(`a few days before ${formatDate(t)}`)],
    [
      new RegExp(`${NUM} (day|week|month|year)s? ago`),
      (t, m) => {
        const word = m[2] ?? '';
        const unit = m[3] ?? 'day';
        const n = count(word);
        if (n === null) {
          const anchor = unit === 'year' ? String(new Date(t).getUTCFullYear()) : formatDate(t);
          return same(`${word.toLowerCase()} ${unit}s before ${anchor}`);
        }
        if (unit === 'day') return onDay(t - n * DAY_MS);
        if (unit === 'week')
          return same(`${word.toLowerCase()} week${n > 1 ? 's' : ''} before ${formatDate(t)}`);
        if (unit === 'month') return inText(formatMonth(addMonths(t, -n)));
        return inText(String(new Date(t).getUTCFullYear() - n));
      },
    ],
    [
      /(?:the )?(last|this|next|past|coming|this past|this coming) (week|weekend|month|year)/,
      (t, m) => {
        const which = (m[2] ?? '').replace('this ', '');
        const dir = which === 'last' || which === 'past' ? -1 : which === 'this' ? 0 : 1;
        const unit = m[3];
        if (unit === 'week') {
          return inText(`the week ${dir < 0 ? 'before' : dir > 0 ? 'after' : 'of'} ${formatDate(t)}`);
        }
        if (which === 'past' || which === 'coming') {
          return same(`the ${unit} ${dir < 0 ? 'before' : 'after'} ${formatDate(t)}`);
        }
        if (unit === 'weekend') {
          const sat = saturdayOfWeek(t) + dir * 7 * DAY_MS;
          const bare = weekendOf(sat);
          return { phrase: `on ${bare}`, bare };
        }
        if (unit === 'month') return inText(formatMonth(addMonths(t, dir)));
        return inText(String(new Date(t).getUTCFullYear() + dir));
      },
    ],
    [
      new RegExp(`(last|this|next|this past|this coming) (${wd})`),
      (t, m) => {
        const which = m[2] ?? 'this';
        const target = WEEKDAYS.indexOf((m[3] ?? '').toLowerCase());
        const dow = new Date(t).getUTCDay();
        let diff: number;
        if (which === 'last' || which === 'this past') diff = -((dow - target + 7) % 7 || 7);
        else if (which === 'this coming') diff = (target - dow + 7) % 7 || 7;
        // "next Saturday" is the Saturday of next week (Monday-to-Sunday weeks).
        else if (which === 'next') diff = 7 + ((target + 6) % 7) - ((dow + 6) % 7);
        else diff = ((target + 6) % 7) - ((dow + 6) % 7);
        const name = (m[3] ?? '').charAt(0).toUpperCase() + (m[3] ?? '').slice(1).toLowerCase();
        const bare = `${name}, ${formatDate(t + diff * DAY_MS)}`;
        return { phrase: `on ${bare}`, bare };
      },
    ],
    // "last Christmas", "this Easter", "next Halloween": the holiday and its date.
    [
      new RegExp(`(last|this|next) (${HOLIDAY_NAMES})(?!${HOLIDAY_MODIFIED})`),
      (t, m) => {
        const h = holiday(m[3] ?? '');
        if (!h) return same(m[0] ?? '');
        const bare = `${h.label}, ${formatDate(holidayDate(h, (m[2] ?? 'this') as 'last' | 'this' | 'next', t))}`;
        return { phrase: `${h.prep} ${bare}`, bare };
      },
    ],
    [
      /(last|this|next) (summer|winter|spring|fall|autumn)/,
      (t, m) => inText(season((m[3] ?? '').toLowerCase(), (m[2] ?? '').toLowerCase(), t)),
    ],
  ];
}

const RULES: Rule[] = rules().map(([re, fn]) => [new RegExp(`${PREP}\\b${re.source}\\b(?!')`, 'gi'), fn]);
/** Cheap pre-check: every rule needs one of these expressions. */
const QUICK = new RegExp(
  `\\b(?:yesterday|tomorrow|today|tonight|ago|other day|last night|(?:last|this|next|past|coming) (?:week|weekend|month|year|morning|afternoon|evening|summer|winter|spring|fall|autumn|${WEEKDAYS.join('|')})|(?:last|this|next) (?:${HOLIDAY_NAMES})|in \\S+ (?:days?|weeks?))\\b`,
  'i',
);
const FUTURE = new RegExp(`\\bin ${NUM} (day|week)s?\\b`, 'gi');

/** Verbs of the present that end in "ed" ("I need a gift"): no verb in the past. */
export const ED_PRESENT = [
  'need',
  'feed',
  'speed',
  'breed',
  'bleed',
  'proceed',
  'exceed',
  'succeed',
  'seed',
  'heed',
  'embed',
  'shed',
];

/** An adverb before a verb ("just", "finally", "quickly"). */
const ADVERB = String.raw`(?:(?:just|finally|already|also|once|actually|\w+ly)\s+)?`;
/** A verb in the past: any in "ed" but those of ED_PRESENT and `not`, or an irregular one. */
const pastVerb = (not: readonly string[]) =>
  String.raw`(?:(?!(?:${[...ED_PRESENT, ...not].join('|')})\b)[a-z]+ed|was|were|did|had|got|went|made|took|ran|read|wrote|built|won|drove|flew|swam|sold|bought|paid|spent|saw|came|met|found|gave|grew|became|began|broke|caught|chose|ate|fell|kept|rode|sent|sang|slept|spoke|taught|threw|woke|wore)\b`;

/** A subject and a verb in the past: "I finished", "we just painted", "she ran", "which was". */
const PAST = new RegExp(
  String.raw`\b(?:i|we|he|she|they|you|it|which|that|who)\s+${ADVERB}${pastVerb([])}`,
  'i',
);

/**
 * Words in "ed" that tell how someone is or what is arranged rather than what they did ("my
 * brother is worried", "interested in ...", "the trip scheduled for May"): no verb in the past
 * here, nor a dropped "I" before them in the offline rewriter (NOT_PAST).
 */
export const STATE_PARTICIPLES = [
  'supposed',
  'interested',
  'scheduled',
  'pleased',
  'surprised',
  'shocked',
  'stressed',
  'bored',
  'scared',
  'worried',
  'amazed',
  'obsessed',
  'overwhelmed',
  'prepared',
  'engaged',
];

/** STATE_PARTICIPLES and more words of feeling or arrangement: "So excited for Saturday", "booked for May". */
const STATE_ED = [
  ...STATE_PARTICIPLES,
  'excited',
  'tired',
  'thrilled',
  'relieved',
  'disappointed',
  'exhausted',
  'frustrated',
  'annoyed',
  'blessed',
  'used',
  'planned',
  'booked',
];

/**
 * Someone named, or "my ..." (up to two words), and a verb in the past: "Biscuit passed away",
 * "my little brother started", "Dad went". Case-sensitive: a name is capitalised.
 */
const PAST_OF_SOMEONE = new RegExp(
  String.raw`(?:\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Yy]our|[Tt]he)(?:\s+[a-z]+){1,2}|\b[A-Z][a-z]+)\s+${ADVERB}${pastVerb(STATE_ED)}`,
);
/** A clause opening with its verb in the past, its "I" left out: "Ran the half on Sunday". Not a colour. */
const PAST_NO_SUBJECT = new RegExp(
  String.raw`^\s*${ADVERB}(?!(?:red|bed|wed|shed|sled)\b)${pastVerb(STATE_ED)}`,
  'i',
);
const FUTURE_MARKER =
  /\b(?:will|'ll|shall|going to|gonna|would|'d|plans? to|planning to|hopes? to|hoping to|wants? to)\b/i;

/**
 * Where a clause ends: a stop, a comma before a conjunction that opens another, or a
 * conjunction before a subject pronoun ("I got the offer and I start on March 1st").
 */
const CLAUSE_BREAK =
  /[.;!?]|,\s+(?:and|but|so|or|then)\b|\s(?:and|but|so|then)\s+(?=(?:i|we|you|he|she|they)\b)/i;

/**
 * True when the clause ending at an "in three days" is told in the past and not of the
 * future ("Last month I finished the series in a week"): the phrase says how long something
 * took, not when.
 */
function toldInThePast(before: string): boolean {
  const clause = before.split(CLAUSE_BREAK).pop() ?? '';
  return (
    (PAST.test(clause) || PAST_OF_SOMEONE.test(clause) || PAST_NO_SUBJECT.test(clause)) &&
    !FUTURE_MARKER.test(clause)
  );
}

/**
 * The tense of the clause a date expression at `offset` of `input` stands in, its words after
 * the expression too ("The party on the 3rd was fun").
 */
function tenseAt(offset: number, input: string): 'past' | 'future' | 'now' {
  const head = input.slice(0, offset).split(CLAUSE_BREAK).pop() ?? '';
  const tail = input.slice(offset).split(CLAUSE_BREAK)[0] ?? '';
  const clause = `${head}${tail}`;
  // The nearest verb is in the present and nothing after it in the past ("my manager said I'm
  // getting promoted in April", "we cancelled because her sister is getting married in
  // October"): a plan told in the present, whatever was told before it.
  let present = -1;
  for (const m of head.matchAll(PRESENT_VERB)) present = m.index;
  const fromPresent = present >= 0 ? head.slice(present) : '';
  if (present >= 0 && tenseOf(fromPresent) === null) return tenseOf(fromPresent + tail) ?? 'now';
  // The verb before the date governs it when it tells a tense ("My mum passed away in October
  // and Christmas is going to be hard": the October gone); else the clause as a whole.
  return tenseOf(head) ?? tenseOf(clause) ?? 'now';
}

/** Nouns in "-ing" after a possessive: "Sam's wedding" is no verb. */
const ING_NOUNS =
  'wedding|morning|evening|building|meeting|painting|drawing|thing|ring|king|spring|string|ceiling|clothing|feeling|sibling|pudding|wing|swing|darling|earring|ending|beginning|funeral|housewarming|christening|stocking|filling|lodging|setting|booking|offering|recording|reading|training|savings|listing|ranking';
/**
 * A verb in the present: a form of "be" ("the concert is", "I'm getting") or "'s" after a
 * pronoun or before a verb in "-ing" ("she's flying", "Sam's getting married").
 */
const PRESENT_VERB = new RegExp(
  String.raw`\b(?:am|is|are|isn['’]t|aren['’]t)\b|['’](?:m|re)\b|\b(?:he|she|it|who|that|there)['’]s\b|['’]s\s+(?!(?:${ING_NOUNS})\b)[a-z]+ing\b`,
  'gi',
);

/** The tense a text tells, by its markers of the future and its verbs in the past; null for neither. */
function tenseOf(text: string): 'past' | 'future' | null {
  if (FUTURE_MARKER.test(text)) return 'future';
  return toldInThePast(text) || /\b(?:was|were|did|had)\b/i.test(text) ? 'past' : null;
}

/**
 * Rewrites relative date expressions in `text` into absolute ones relative to `now`
 * (Unix ms, UTC). "I went there yesterday" said on 14 March 2024 becomes "I went there on
 * 13 March 2024"; "since last year" becomes "since 2023".
 */
export function resolveRelativeDates(text: string, now: number): string {
  if (!QUICK.test(text)) return text;
  const day = dayKey(now);
  let out = text;
  for (const [re, fn] of RULES) {
    out = out.replace(re, (...args: unknown[]) => {
      const match = args[0] as string;
      const offset = args[args.length - 2] as number;
      const input = args[args.length - 1] as string;
      // Idioms: "seems like only yesterday" is no date.
      if (/\blike (?:just |only )?$/i.test(input.slice(Math.max(0, offset - 12), offset))) return match;
      const groups = args.slice(0, -2) as (string | undefined)[];
      const lower = groups.map((g) => (g ?? '').toLowerCase());
      const m = Object.assign(lower, { index: 0, input: text }) as unknown as RegExpExecArray;
      const prep = (groups[1] ?? '').toLowerCase();
      // "I went hiking this weekend", said on a weekday: the weekend just gone.
      const dow = new Date(day).getUTCDay();
      const gone =
        /\bthis weekend\b/i.test(match) && dow >= 1 && dow <= 5 && tenseAt(offset, input) === 'past';
      const r = fn(gone ? day - 7 * DAY_MS : day, m);
      const keepPrep = prep !== '' && !['on', 'in', 'at', 'during'].includes(prep);
      // The subject of its sentence ("Yesterday was our anniversary"): the day itself, no "on".
      const subject = offset === 0 && /^\s+(?:was|is|will be)\b/i.test(input.slice(offset + match.length));
      const body = keepPrep ? `${groups[1]} ${r.bare}` : subject ? r.bare : r.phrase;
      return /^[A-Z]/.test(match) && !keepPrep ? body.charAt(0).toUpperCase() + body.slice(1) : body;
    });
  }
  return out.replace(FUTURE, (match: string, word: string, unit: string, offset: number, input: string) => {
    if (toldInThePast(input.slice(0, offset))) return match;
    const n = count(word);
    const lower = word.toLowerCase();
    let body: string;
    if (n !== null && unit.toLowerCase() === 'day') body = `on ${formatDate(day + n * DAY_MS)}`;
    // "In two weeks I start ..." -> "In the week of 28 March 2024 I start ...".
    else if (n !== null) body = `in the week of ${formatDate(day + 7 * n * DAY_MS)}`;
    else body = `${lower} ${unit.toLowerCase()}s after ${formatDate(day)}`;
    return /^[A-Z]/.test(match) ? body.charAt(0).toUpperCase() + body.slice(1) : body;
  });
}

/**
 * Verbs of arranging something ahead ("I signed up for the half marathon on September 14th",
 * "we booked a cabin in October"), and the start of what was arranged ("I got the hours
 * approved, starting from June"): told in the past, the date they stand with is that of the
 * thing arranged as often as that of the arranging.
 */
const ARRANGED =
  /\b(?:signed\s+up|registered|booked|reserved|(?:re)?scheduled|enrolled|entered|arranged|planned|organi[sz]ed|(?:bought|got)\s+(?:\w+\s+){0,2}tickets?|(?:starting|beginning)(?!\s+to\b)|effective)\b/i;

/** True when the clause before a date expression at `offset` of `input` tells something arranged (ARRANGED). */
const arrangedBefore = (offset: number, input: string) =>
  ARRANGED.test(input.slice(0, offset).split(CLAUSE_BREAK).pop() ?? '');

/** Days within which a date told with an arranging verb may be the arranging's own. */
const ARRANGED_RECENT_DAYS = 92;

/**
 * Of ascending `candidates`, the date of a thing arranged: the latest up to `today` when it is
 * at most ARRANGED_RECENT_DAYS ago (the arranging's own date, or a thing arranged and done),
 * else the next from `today`.
 */
const arrangedDate = (candidates: number[], today: number) => {
  const past = candidates.filter((t) => t <= today).pop();
  if (past !== undefined && today - past <= ARRANGED_RECENT_DAYS * DAY_MS) return past;
  return candidates.find((t) => t >= today) ?? past ?? candidates[0]!;
};

/** A holiday's name anywhere (the cheap check before HOLIDAY_ALONE). */
const HOLIDAY_WORD = new RegExp(`\\b(?:${HOLIDAY_NAMES})\\b`, 'i');
/** A holiday told after a preposition with no date after it ("at Christmas", "on Halloween"). */
const HOLIDAY_ALONE = new RegExp(
  `\\b(at|over|for|on|during|since|until|till|before|after|by|around)\\s+(${HOLIDAY_NAMES})\\b(?!['’]|,?\\s+\\d|${HOLIDAY_MODIFIED})`,
  'gi',
);

const MONTH_NAMES = MONTHS.join('|');
/** "March 13th", "March 13" with no year after it. */
const MONTH_DAY = new RegExp(
  `\\b(${MONTH_NAMES})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!,?\\s*\\d{4}|:|\\.\\d)`,
  'g',
);
/** "13th of March", "the 13th of March", "13 March" with no year after it. */
const DAY_MONTH = new RegExp(
  `\\b(?:the\\s+)?(\\d{1,2})(?:(?:st|nd|rd|th)\\s+of|st|nd|rd|th)?\\s+(${MONTH_NAMES})\\b(?!,?\\s*\\d{4})`,
  'g',
);
/** "on Saturday": a day of the week with no date after it (not "on Saturdays", "on Saturday, 16 March"). */
const ON_WEEKDAY =
  /\b[Oo]n (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)((?:\s+(?:morning|afternoon|evening|night))?)\b(?!s\b|,?\s+(?:the\s+)?\d|\s+(?:morning|afternoon|evening|night)s\b)/g;
/** "on the 3rd": a day of a month left unsaid. */
const ON_THE_DAY =
  /\bon the (\d{1,2})(st|nd|rd|th)\b(?!\s+(?:of|floor|century|anniversary|time|try|attempt|day|week|place|row|grade|page|step|round|lap)\b)/gi;

/** "over the weekend", "on the weekend" with no date after it. */
const WEEKEND_ALONE = /\b([Oo]ver|[Oo]n|[Aa]t|[Dd]uring|[Ff]or) the weekend\b(?!\s+of\b|s\b)/g;
/** "the end of the month": of the month of `now`. */
const MONTH_PART = /\b(the) (end|start|beginning|middle) of the month\b/gi;
/** A month's name anywhere (the cheap check before MONTH_ALONE). */
const MONTH_WORD = new RegExp(`\\b(?:${MONTH_NAMES})\\b`);
/**
 * A month named alone after a preposition or "early" / "late" / "last" / "next" ("since
 * January", "in early May", "last October"): no day and no year after it. Case-sensitive:
 * "May" the month, not "may".
 */
const MONTH_ALONE = new RegExp(
  `\\b((?:[Ii]n|[Ss]ince|[Dd]uring|[Uu]ntil|[Tt]ill|[Bb]y|[Ff]rom|[Bb]efore|[Aa]fter|[Tt]hrough|[Ll]ast|[Nn]ext|[Tt]his)\\s+(?:(?:early|mid|late)[\\s-]+)?|(?:[Ee]arly|[Mm]id|[Ll]ate)[\\s-]+)(${MONTH_NAMES})\\b(?!,?\\s*(?:\\d|of\\s+\\d))`,
  'g',
);

/**
 * A day told without its year, or without its month, or by its weekday alone ("born on March
 * 13th", "my birthday, which was on the 3rd", "the party is on Saturday"), and a month, the
 * weekend or the month's end told alone ("since January", "over the weekend", "by the end of
 * the month"), given the year (and month, and week) of `now` (Unix ms, UTC): "born on 13
 * March 2024", "which was on 3 March 2024", "on Saturday, 16 March 2024". A clause told in
 * the past takes the latest such day up to now; any other the next from now, as a plan or a
 * schedule is told in the present ("my exam is on January 5th", "a trip in October").
 */
export function withYears(text: string, now: number): string {
  if (
    !/\d|\b[Oo]n [MTWFS][a-z]+day\b|\bweekend\b|\bof the month\b/.test(text) &&
    !MONTH_WORD.test(text) &&
    !HOLIDAY_WORD.test(text)
  )
    return text;
  const today = dayKey(now);
  const d = new Date(today);
  const y = d.getUTCFullYear();
  const pick = (candidates: number[], tense: string, fallback: number) =>
    tense === 'past'
      ? (candidates.filter((t) => t <= today).pop() ?? fallback)
      : tense === 'future'
        ? (candidates.find((t) => t >= today) ?? fallback)
        : fallback;
  // A month's day with the year the clause's tense picks ("March 13th", "13th of March").
  const ofMonth = (match: string, name: string, day: string, offset: number, input: string) => {
    const month = (MONTHS as readonly string[]).indexOf(name);
    const n = Number(day);
    if (month < 0 || n < 1 || n > 31) return match;
    const dates = [y - 1, y, y + 1].map((yy) => Date.UTC(yy, month, n));
    // Told in neither tense ("my exam is on January 5th", said in December): the next, as a
    // plan or a schedule is said in the present.
    const next = dates.find((t) => t >= today) ?? Date.UTC(y, month, n);
    const tense = tenseAt(offset, input);
    // Told in the past of arranging it: the day of the arranging when it is recent, else of
    // the thing arranged ("signed up for the race on September 14th", said in May: this
    // September; "signed up for the gym on March 3rd": this March).
    if (tense === 'past' && arrangedBefore(offset, input)) return formatDate(arrangedDate(dates, today));
    return formatDate(pick(dates, tense, next));
  };
  let out = text.replace(
    MONTH_DAY,
    (match: string, name: string, day: string, offset: number, input: string) =>
      ofMonth(match, name, day, offset, input),
  );
  out = out.replace(DAY_MONTH, (match: string, day: string, name: string, offset: number, input: string) =>
    ofMonth(match, name, day, offset, input),
  );
  out = out.replace(
    ON_WEEKDAY,
    (match: string, name: string, part: string, offset: number, input: string) => {
      const target = WEEKDAYS.indexOf(name.toLowerCase());
      const dow = d.getUTCDay();
      const tense = tenseAt(offset, input);
      // The nearest such day before today in the past, else the next from today (today itself
      // when nothing says otherwise: "the party is on Saturday", said on a Saturday).
      const ahead = (target - dow + 7) % 7;
      const diff =
        tense === 'past' ? -((dow - target + 7) % 7 || 7) : tense === 'future' ? ahead || 7 : ahead;
      return `${match.slice(0, 2)} ${name}${part}, ${formatDate(today + diff * DAY_MS)}`;
    },
  );
  out = out.replace(WEEKEND_ALONE, (_match: string, prep: string, offset: number, input: string) => {
    // The weekend told in the past: the last one (this one, said on it); else the next.
    const sat = saturdayOfWeek(today);
    const tense = tenseAt(offset, input);
    const at =
      tense === 'past'
        ? sat <= today
          ? sat
          : sat - 7 * DAY_MS
        : sat + DAY_MS >= today
          ? sat
          : sat + 7 * DAY_MS;
    return `${prep} ${weekendOf(at)}`;
  });
  out = out.replace(
    MONTH_PART,
    (_m: string, the: string, part: string) => `${the} ${part} of ${formatMonth(today)}`,
  );
  out = out.replace(
    MONTH_ALONE,
    (match: string, lead: string, name: string, offset: number, input: string) => {
      const month = (MONTHS as readonly string[]).indexOf(name);
      const cm = d.getUTCMonth();
      const which = lead.trim().toLowerCase();
      const tense =
        which === 'since'
          ? 'past'
          : which === 'until' || which === 'till'
            ? 'future'
            : tenseAt(offset, input);
      let year: number;
      if (which === 'last') year = month < cm ? y : y - 1;
      else if (which === 'next') year = month > cm ? y : y + 1;
      else if (which === 'this') year = y;
      // Told in the past of arranging it ("we booked a cabin in October"), as a day is above.
      else if (tense === 'past' && arrangedBefore(offset, input))
        year = new Date(
          arrangedDate(
            [y - 1, y, y + 1].map((yy) => Date.UTC(yy, month, 1)),
            Date.UTC(y, cm, 1),
          ),
        ).getUTCFullYear();
      else if (tense === 'past') year = month <= cm ? y : y - 1;
      // Told of the future or in neither tense: the next such month (this one included).
      else year = month >= cm ? y : y + 1;
      if (which === 'last' || which === 'next' || which === 'this') {
        const prep = /\b(?:in|since|until|till|by|from|before|after|during|through)\s+$/i.test(
          input.slice(0, offset),
        );
        const body = `${prep ? '' : 'in '}${name} ${year}`;
        return /^[A-Z]/.test(match) && !prep ? body.charAt(0).toUpperCase() + body.slice(1) : body;
      }
      return `${match.slice(0, match.length - name.length)}${name} ${year}`;
    },
  );
  // A holiday told alone ("at Christmas", "for Easter", "on Halloween"): the last one in the
  // past, else the next one from today.
  out = out.replace(
    HOLIDAY_ALONE,
    (match: string, prep: string, name: string, offset: number, input: string) => {
      const h = holiday(name);
      if (!h) return match;
      const dates = [y - 1, y, y + 1].map((yy) => h.date(yy));
      const at =
        tenseAt(offset, input) === 'past'
          ? (dates.filter((t) => t <= today).pop() ?? dates[0]!)
          : (dates.find((t) => t >= today) ?? dates[2]!);
      return `${prep} ${h.label}, ${formatDate(at)}`;
    },
  );
  return out.replace(
    ON_THE_DAY,
    (match: string, day: string, _suffix: string, offset: number, input: string) => {
      const n = Number(day);
      if (n < 1 || n > 31) return match;
      const m = d.getUTCMonth();
      const dates = [-1, 0, 1].map((k) => Date.UTC(y, m + k, n));
      const thisMonth = Date.UTC(y, m, n);
      const fallback = thisMonth >= today ? thisMonth : Date.UTC(y, m + 1, n);
      const on = match.slice(0, 2);
      return `${on} ${formatDate(pick(dates, tenseAt(offset, input), fallback))}`;
    },
  );
}
