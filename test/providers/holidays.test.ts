import { describe, expect, it } from 'vitest';
import { formatDate } from '../../src/core/dates.js';
import { easter, holiday, holidayDate } from '../../src/core/holidays.js';

/** The holidays the offline extractor dates ("last Christmas", "at Easter"): core/holidays.ts. */
describe('holidays', () => {
  it('dates Easter by the Gregorian computus', () => {
    expect([2019, 2023, 2024, 2025, 2026].map((y) => formatDate(easter(y)))).toEqual([
      '21 April 2019',
      '9 April 2023',
      '31 March 2024',
      '20 April 2025',
      '5 April 2026',
    ]);
  });

  it('dates Thanksgiving on the fourth Thursday of November, and a fixed holiday by its day', () => {
    const t = holiday('Thanksgiving')!;
    expect([2023, 2024, 2025].map((y) => formatDate(t.date(y)))).toEqual([
      '23 November 2023',
      '28 November 2024',
      '27 November 2025',
    ]);
    expect(formatDate(holiday('new year’s eve')!.date(2024))).toBe('31 December 2024');
  });

  it('takes the last one before today, the next one after it, or this year’s', () => {
    const xmas = holiday('christmas')!;
    const onIt = Date.UTC(2024, 11, 25);
    expect(formatDate(holidayDate(xmas, 'last', onIt))).toBe('25 December 2023');
    expect(formatDate(holidayDate(xmas, 'next', onIt))).toBe('25 December 2025');
    expect(formatDate(holidayDate(xmas, 'this', Date.UTC(2024, 2, 1)))).toBe('25 December 2024');
    expect(formatDate(holidayDate(xmas, 'last', Date.UTC(2024, 11, 26)))).toBe('25 December 2024');
  });
});
