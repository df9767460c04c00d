import { addMonths, count, DAY_MS, dayKey, mondayOf, NUM } from './dates.js';
import { MONTHS } from './time.js';

/** A span of time, `from` included, `to` excluded (Unix ms, UTC). */
export interface TimeRange {
  from: number;
  to: number;
}

/** A span a text names, and the words that name it ("last week"). */
export interface AskedRange extends TimeRange {
  phrase: string;
}

/** A count a span is said with ("two weeks ago"); a vague one ("a few days ago") names none. */
const amount = (word: string) => count(word) ?? Number.NaN;

const days = (from: number, n: number): TimeRange => ({ from, to: from + n * DAY_MS });

type RangeRule = [RegExp, (today: number, m: RegExpExecArray) => TimeRange];

const MONTH_NAMES = MONTHS.join('|');

/**
 * The spans a question's time expressions name ("what did I do last week?"), in the order of
 * RULES: a day (yesterday, last night, today, N days ago), a week (last week, N weeks ago),
 * the last weekend, a month (last month, N months ago, "in June" for the latest June up to
 * now, "in June 2024"), the last year.
 */
const RULES: RangeRule[] = [
  [/\b(?:yesterday|last night)\b/i, (t) => days(t - DAY_MS, 1)],
  [/\b(?:today|this morning|this afternoon|tonight|this evening)\b/i, (t) => days(t, 1)],
  [new RegExp(`\\b${NUM} days? ago\\b`, 'i'), (t, m) => days(t - amount(m[1]!) * DAY_MS, 1)],
  [/\blast weekend\b/i, (t) => days(mondayOf(t) - 2 * DAY_MS, 2)],
  [/\b(?:last week|a week ago)\b/i, (t) => days(mondayOf(t) - 7 * DAY_MS, 7)],
  [new RegExp(`\\b${NUM} weeks? ago\\b`, 'i'), (t, m) => days(mondayOf(t) - 7 * amount(m[1]!) * DAY_MS, 7)],
  [/\b(?:last month|a month ago)\b/i, (t) => ({ from: addMonths(t, -1), to: addMonths(t, 0) })],
  [
    new RegExp(`\\b${NUM} months? ago\\b`, 'i'),
    (t, m) => ({ from: addMonths(t, -amount(m[1]!)), to: addMonths(t, 1 - amount(m[1]!)) }),
  ],
  [
    new RegExp(`\\b(?:in|during) (?:early |late |mid-?)?(${MONTH_NAMES})(?:,? (\\d{4}))?\\b(?! \\d)`),
    (t, m) => {
      const month = (MONTHS as readonly string[]).indexOf(m[1]!);
      const now = new Date(t);
      const year = m[2]
        ? Number(m[2])
        : month <= now.getUTCMonth()
          ? now.getUTCFullYear()
          : now.getUTCFullYear() - 1;
      return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) };
    },
  ],
  [
    /\blast year\b/i,
    (t) => {
      const y = new Date(t).getUTCFullYear() - 1;
      return { from: Date.UTC(y, 0, 1), to: Date.UTC(y + 1, 0, 1) };
    },
  ],
];

/**
 * The span of time a question asks about, counted from `now` (Unix ms): "What did I do last
 * week?" asked on Wednesday 4 December 2024 is 25 November to 1 December 2024. Undefined when
 * it names none, or only a day of its own ("on 3 March", which facts carry as words), or
 * counts it vaguely ("a few days ago").
 */
export function askedRange(text: string, now: number): AskedRange | undefined {
  const today = dayKey(now);
  for (const [re, span] of RULES) {
    const m = re.exec(text);
    if (!m) continue;
    const r = span(today, m);
    return Number.isNaN(r.from) || Number.isNaN(r.to) ? undefined : { ...r, phrase: m[0] };
  }
  return undefined;
}
