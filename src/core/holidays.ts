/**
 * Holidays named instead of a date ("last Christmas", "at Easter", "on Halloween"): their
 * names as a pattern, and their date in a year. Fixed ones by month and day; Easter by the
 * Gregorian computus; Thanksgiving as the United States keep it (the fourth Thursday of
 * November).
 */

/** How a holiday is written once dated, the preposition it takes, and its date in a year. */
interface Holiday {
  label: string;
  prep: 'at' | 'on';
  /** Its date (UTC ms) in `year`. */
  date: (year: number) => number;
}

const fixed =
  (month: number, day: number) =>
  (year: number): number =>
    Date.UTC(year, month, day);

/** Easter Sunday of `year` (anonymous Gregorian algorithm). */
export function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** The fourth Thursday of November of `year`. */
function thanksgiving(year: number): number {
  const first = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  return Date.UTC(year, 10, 1 + ((4 - first + 7) % 7) + 21);
}

/** By the lower-cased name a text uses, longest names first in HOLIDAY_NAMES. */
const HOLIDAYS: Record<string, Holiday> = {
  'christmas eve': { label: 'Christmas Eve', prep: 'on', date: fixed(11, 24) },
  'christmas day': { label: 'Christmas Day', prep: 'on', date: fixed(11, 25) },
  christmas: { label: 'Christmas', prep: 'at', date: fixed(11, 25) },
  'boxing day': { label: 'Boxing Day', prep: 'on', date: fixed(11, 26) },
  "new year's eve": { label: "New Year's Eve", prep: 'on', date: fixed(11, 31) },
  "new year's day": { label: "New Year's Day", prep: 'on', date: fixed(0, 1) },
  halloween: { label: 'Halloween', prep: 'on', date: fixed(9, 31) },
  "valentine's day": { label: "Valentine's Day", prep: 'on', date: fixed(1, 14) },
  easter: { label: 'Easter', prep: 'at', date: easter },
  thanksgiving: { label: 'Thanksgiving', prep: 'at', date: thanksgiving },
};

/** The holidays' names as a pattern source, longest first ("christmas eve" before "christmas"). */
export const HOLIDAY_NAMES = Object.keys(HOLIDAYS)
  .sort((a, b) => b.length - a.length)
  .map((n) => n.replace(/'/g, "['’]"))
  .join('|');

/**
 * A holiday's name used as a modifier ("the Christmas party", "Easter eggs", "Halloween
 * costume"): no date. As a pattern source, for a negative lookahead after the name.
 */
export const HOLIDAY_MODIFIED = String.raw`\s+(?:time|trees?|part(?:y|ies)|dinners?|lunch(?:es)?|markets?|cards?|presents?|gifts?|lights|break|holidays?|shopping|songs?|music|movies?|films?|jumpers?|sweaters?|costumes?|candy|eggs?|bunny|weekend|season|period|vacation|fair|play|concert|show|special|sale|menu|decorations?)\b`;

/** The holiday a name stands for (any case, either apostrophe). */
export const holiday = (name: string): Holiday | undefined => HOLIDAYS[name.toLowerCase().replace(/’/g, "'")];

/**
 * The date of holiday `h` on the side of `today` that `which` asks: the last one before today,
 * the next one after it, or this year's.
 */
export function holidayDate(h: Holiday, which: 'last' | 'next' | 'this', today: number): number {
  const y = new Date(today).getUTCFullYear();
  if (which === 'this') return h.date(y);
  if (which === 'last') return h.date(y) < today ? h.date(y) : h.date(y - 1);
  return h.date(y) > today ? h.date(y) : h.date(y + 1);
}
