import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/core/dates.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

const DAY = 24 * HOUR;

/**
 * Facts carry absolute dates ("on 26 November 2026"); a question's relative ones ("yesterday",
 * "last week") are resolved against the time it is asked and searched as those dates too.
 */
describe.each(DRIVERS)('a question about yesterday finds what is dated yesterday [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    const now = Date.now();
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0,
      subject: 'a check-up',
      facts: [`Zoe went to the dentist for her yearly check-up on ${formatDate(now - DAY)}.`],
    });
    // shorter, so it ranks first on the question's own words alone
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + HOUR,
      subject: 'a visit',
      facts: [`Zoe went to the dentist on ${formatDate(now - 40 * DAY)}.`],
    });
  });
  afterAll(() => f.database.drop());

  for (const method of ['keyword', 'hybrid'] as const)
    it(`${method}: yesterday's fact comes first`, async () => {
      const r = await run({ user_id: 'zoe', query: 'Where did Zoe go yesterday?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toContain(formatDate(Date.now() - DAY));
      if (method === 'keyword') {
        // the question's own words alone rank the other one first
        const plain = await run({ user_id: 'zoe', query: 'Where did Zoe go?', method });
        expect(plain.episodes[0]!.atomic_facts[0]!.content).toContain(formatDate(Date.now() - 40 * DAY));
      }
    });
});
