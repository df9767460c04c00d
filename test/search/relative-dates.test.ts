import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/core/dates.js';
import { ownerNewest } from '../../src/engine/search/anchor.js';
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

/**
 * A conversation replayed from the past (imported history, an evaluation run) is asked about
 * "yesterday" today: yesterday of its owner's newest memory is meant as well as the day before
 * the search, so the question's relative dates are also resolved against that.
 */
describe.each(DRIVERS)(
  "a question about yesterday in a replayed conversation finds its owner's yesterday [%s]",
  (driver) => {
    let f: Fixture;
    const run = searchOf(() => f);
    const last = T0 + 30 * DAY;

    beforeAll(async () => {
      f = await openFixture(driver);
      await seedEpisode(f, {
        owners: ['zoe'],
        ts: last - 2 * HOUR,
        subject: 'a check-up',
        facts: [`Zoe went to the dentist for her yearly check-up on ${formatDate(last - DAY)}.`],
      });
      // shorter, so it ranks first on the question's own words alone
      await seedEpisode(f, {
        owners: ['zoe'],
        ts: T0,
        subject: 'a visit',
        facts: [`Zoe went to the dentist on ${formatDate(T0 - DAY)}.`],
      });
      // another owner's newer memory does not move Zoe's yesterday
      await seedEpisode(f, {
        owners: ['max'],
        ts: last + 10 * DAY,
        subject: 'a walk',
        facts: ['Max walked the dog along the river.'],
      });
    });
    afterAll(() => f.database.drop());

    it("reads the owner's newest episode through either bounded path, and none of an owner with none", async () => {
      const scope = (ownerId: string) => ({
        tenantId: 'tenant-a',
        appId: 'default',
        projectId: 'default',
        ownerId,
        filters: undefined,
      });
      // few episodes: all of hers; many (every owner counted as many here): the scope's newest
      expect(await ownerNewest(f.db, scope('zoe'))).toBe(last - 2 * HOUR);
      expect(await ownerNewest(f.db, scope('zoe'), 0)).toBe(last - 2 * HOUR);
      expect(await ownerNewest(f.db, scope('max'), 0)).toBe(last + 10 * DAY);
      expect(await ownerNewest(f.db, scope('nobody'))).toBeUndefined();
    });

    for (const method of ['keyword', 'hybrid'] as const)
      it(`${method}: the fact dated the day before her newest memory comes first`, async () => {
        const r = await run({ user_id: 'zoe', query: 'Where did Zoe go yesterday?', method });
        expect(r.episodes[0]!.atomic_facts[0]!.content).toContain(formatDate(last - DAY));
        if (method === 'keyword') {
          const plain = await run({ user_id: 'zoe', query: 'Where did Zoe go?', method });
          expect(plain.episodes[0]!.atomic_facts[0]!.content).toContain(formatDate(T0 - DAY));
        }
      });
  },
);

/**
 * A year named relative to now ("this year") is searched as that year ("2026"), the word a
 * memory carries, and not as the word "year", which any memory telling a duration or a
 * frequency holds ("every year", "for four years").
 */
describe.each(DRIVERS)('a question about this year finds what is dated this year [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    f = await openFixture(driver);
    const now = Date.now();
    await seedEpisode(f, {
      owners: ['lia'],
      ts: now - 2 * DAY,
      subject: 'a bike',
      facts: [`Lia bought a second-hand road bike in ${year} for her commute.`],
    });
    // shorter, and holding "year"
    await seedEpisode(f, {
      owners: ['lia'],
      ts: now - DAY,
      subject: 'a habit',
      facts: ['Lia buys a paper calendar every year.'],
    });
  });
  afterAll(() => f.database.drop());

  // By keyword (hybrid's embedder reads "buy" and "buys a paper calendar" as nearer).
  it('keyword: "What did Lia buy this year?" finds what she bought this year', async () => {
    const r = await run({ user_id: 'lia', query: 'What did Lia buy this year?', method: 'keyword' });
    expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/road bike/);
  });
  it('keyword: "What did I do this year?" asks nothing else and is searched with its words', async () => {
    const r = await run({ user_id: 'lia', query: 'What did I do this year?', method: 'keyword' });
    expect(r.episodes.map((e: any) => e.atomic_facts[0]!.content)).toContain(
      'Lia buys a paper calendar every year.',
    );
  });
});

/**
 * A holiday named relative to now ("last Christmas") is searched as that holiday's date too
 * ("25 December 2025"), which a memory may carry without the holiday's name.
 */
describe.each(DRIVERS)('a question about last Christmas finds what is dated then [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);
  const now = Date.now();
  const y = new Date(now).getUTCFullYear();
  // The last Christmas before today (on Christmas Day itself, the year before's).
  const today = Date.UTC(y, new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  const last = Date.UTC(y, 11, 25) < today ? y : y - 1;

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: now - 3 * DAY,
      subject: 'a trip',
      facts: [`Zoe went skiing in the Alps with her brother on 25 December ${last}.`],
    });
    // shorter, so it ranks first on the question's own words alone
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: now - 2 * DAY,
      subject: 'a plan',
      facts: ['Zoe went skiing once.'],
    });
  });
  afterAll(() => f.database.drop());

  it('keyword: "Where did Zoe go skiing last Christmas?" finds the trip dated then', async () => {
    const r = await run({
      user_id: 'zoe',
      query: 'Where did Zoe go skiing last Christmas?',
      method: 'keyword',
    });
    expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/in the Alps/);
    const plain = await run({ user_id: 'zoe', query: 'Where did Zoe go skiing?', method: 'keyword' });
    expect(plain.episodes[0]!.atomic_facts[0]!.content).toBe('Zoe went skiing once.');
  });
});
