import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/core/dates.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

/**
 * "What kind of ..." frames a question: a memory that answers it names the thing ("a tiny
 * cabin"), seldom its kind, while other memories say "kinds" of something; "can you remind
 * me ... in our previous conversation" points back at the talk. The frame's words are no
 * query terms, so the question's own words decide.
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
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + 2 * HOUR,
      subject: 'Elm Street',
      facts: ['Nora recommended a bakery on Elm Street.'],
    });
    const yesterday = formatDate(Date.now() - 24 * HOUR);
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + 4 * HOUR,
      subject: 'a class',
      facts: [`Nora went to a pottery class on ${yesterday}.`],
    });
    // dated the same day, and holding the words that point back at the talk
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + 5 * HOUR,
      subject: 'a postcard',
      facts: [`A postcard reminded Nora of a previous conversation on ${yesterday}.`],
    });
    // holds "reminded", "previous" and "conversation": the words pointing back at the talk
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + 3 * HOUR,
      subject: 'a previous conversation',
      facts: ['The old photo reminded Nora of a previous conversation with her grandmother.'],
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

  it('keyword: "Can you remind me ... in our previous conversation?" finds what was asked', async () => {
    const r = await run({
      user_id: 'nora',
      query: 'Can you remind me which bakery Nora recommended in our previous conversation?',
      method: 'keyword',
    });
    expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/recommended a bakery/);
  });

  it('keyword: the frame is no term of the dates a question asks about either', async () => {
    const r = await run({
      user_id: 'nora',
      query: 'Can you remind me where Nora went yesterday, from our previous conversation?',
      method: 'keyword',
    });
    expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/pottery class/);
  });
});
