import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

/**
 * A question about the current state lifts the newest answer a hair above the best score
 * (current-state.ts, newestWins); a hybrid or vector score stays within 0-1 even when the best
 * one is 1 already (the question in the fact's very words), and the newest still comes first.
 */
describe.each(DRIVERS)('current state: the newest answer first, scores within their range [%s]', (driver) => {
  let f: Fixture;
  let porto: string;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0,
      subject: 'Zoe lives in Lisbon',
      facts: ['Zoe lives in Lisbon'],
    });
    porto = (
      await seedEpisode(f, {
        owners: ['zoe'],
        ts: T0 + HOUR,
        subject: 'Zoe currently lives in Porto',
        facts: ['Zoe currently lives in Porto'],
      })
    ).id;
  });
  afterAll(() => f.database.drop());

  for (const method of ['hybrid', 'vector'] as const)
    it(`${method}: a question in the newest fact's own words`, async () => {
      const r = await run({ user_id: 'zoe', query: 'Zoe currently lives in Porto', method });
      expect(r.episodes[0]!.id).toBe(porto);
      const scores = r.episodes.flatMap((e) => [e.score, ...e.atomic_facts.map((x) => x.score)]);
      for (const s of scores) expect(s).toBeLessThanOrEqual(1);
      expect(r.episodes[0]!.score).toBeGreaterThan(r.episodes[1]?.score ?? 0);
    });
});
