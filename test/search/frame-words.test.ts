import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

/**
 * "What kind of ..." frames a question: a memory that answers it names the thing ("a tiny
 * cabin by the lake"), seldom its kind, while other memories say "kinds" of something. The
 * frame's words are no query terms, so the question's own noun decides.
 */
describe.each(DRIVERS)('a question\'s frame ("what kind of") is no query term [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0,
      subject: 'a summer trip',
      facts: ['Nora is staying in a tiny wooden cabin in Orkney.'],
    });
    // holds "kind" twice: the frame's words would rank it first
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + HOUR,
      subject: 'kinds of bread',
      facts: ['Nora asked which kinds of bread keep well and which kind freezes best.'],
    });
  });
  afterAll(() => f.database.drop());

  it('keyword: "What kind of accommodation is Nora using in Orkney?" finds the cabin', async () => {
    const r = await run({
      user_id: 'nora',
      query: 'What kind of accommodation is Nora using in Orkney?',
      method: 'keyword',
    });
    expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/tiny wooden cabin/);
  });
});
