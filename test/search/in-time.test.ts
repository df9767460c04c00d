import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedRange } from '../../src/core/date-range.js';
import { asksOnlyTime } from '../../src/engine/search/in-time.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, searchOf, seedEpisode, seedMessage } from './seed.js';

const DAY = 86_400_000;
/** Tuesday 3 December 2024, noon UTC. */
const DEC_3 = Date.UTC(2024, 11, 3, 12);

describe('the span of time a question names (core/date-range.ts, in-time.ts)', () => {
  it('reads a day, a week, a weekend, a month and a year from the time asked', () => {
    const span = (text: string) => {
      const r = askedRange(text, DEC_3);
      return r && [new Date(r.from).toISOString().slice(0, 10), new Date(r.to).toISOString().slice(0, 10)];
    };
    expect(span('What did I do yesterday?')).toEqual(['2024-12-02', '2024-12-03']);
    expect(span('What did I do three days ago?')).toEqual(['2024-11-30', '2024-12-01']);
    expect(span('What did I do last week?')).toEqual(['2024-11-25', '2024-12-02']);
    expect(span('What did I get up to last weekend?')).toEqual(['2024-11-30', '2024-12-02']);
    expect(span('What happened two weeks ago?')).toEqual(['2024-11-18', '2024-11-25']);
    expect(span('What did we do last month?')).toEqual(['2024-11-01', '2024-12-01']);
    expect(span('What happened in June?')).toEqual(['2024-06-01', '2024-07-01']);
    expect(span('What happened in December?')).toEqual(['2024-12-01', '2025-01-01']);
    expect(span('What did I do in June 2023?')).toEqual(['2023-06-01', '2023-07-01']);
    expect(span('What did I do last year?')).toEqual(['2023-01-01', '2024-01-01']);
    // a vague count names no span; a day of its own is in the facts' words; "may" is no month
    expect(span('What did I do a few days ago?')).toBeUndefined();
    expect(span('What did I do on 3 March?')).toBeUndefined();
    expect(span('What may I eat?')).toBeUndefined();
  });

  it('lets the span decide only for a question that asks nothing else', () => {
    const only = (text: string) => asksOnlyTime(text, askedRange(text, DEC_3)!.phrase);
    expect(only('What did I do last week?')).toBe(true);
    expect(only('What happened in June?')).toBe(true);
    expect(only('What did Theo get up to last weekend?')).toBe(true);
    expect(only('When did I go camping in June?')).toBe(false);
    expect(only('What did I cook last week?')).toBe(false);
  });
});

describe.each(DRIVERS)('a question about a span of time and nothing else [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    const seed = (day: number, subject: string, facts: string[]) =>
      seedEpisode(f, { owners: ['mae'], ts: DEC_3 - day * DAY, subject, facts });
    // told that week, with no date in its words
    await seed(4, 'a dinner', ['Mae hosted a dinner for her parents and baked a pie.']);
    // the question's words, told weeks before
    await seed(40, 'a course', ['Mae did a week-long pottery course and loved the last week of it.']);
    await seed(21, 'a door', ['Mae asked how to fix a squeaky door.']);
    // her newest memory: the question is asked from its day
    await seed(0, 'the weather', ['Mae asked about the weather in Oslo.']);
    // her turns: one of that week, one holding the question's words weeks before
    const turn = (day: number, content: string) =>
      seedMessage(f, {
        session: `s${day}`,
        sender: 'mae',
        content,
        state: 'extracted',
        ts: DEC_3 - day * DAY,
      });
    await turn(4, 'Hosted my parents for dinner and the pie came out great.');
    await turn(40, 'Last week of the pottery course, what a week it was.');
  });
  afterAll(() => f.database.drop());

  for (const method of ['keyword', 'hybrid'] as const)
    it(`${method}: "What did I do last week?" finds what she told that week, facts and turns`, async () => {
      const r = await run({ user_id: 'mae', query: 'What did I do last week?', method });
      expect(r.episodes[0]?.atomic_facts[0]?.content).toMatch(/hosted a dinner/);
      expect(r.messages[0]?.content).toMatch(/Hosted my parents/);
    });
});
