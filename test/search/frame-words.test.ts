import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/core/dates.js';
import { questionLexemes } from '../../src/engine/search/hybrid.js';
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

  it('"my current job", "currently", "these days" are no terms: they frame a question about now', async () => {
    expect(await questionLexemes(f.db, 'What is my current job?')).toEqual(['job']);
    expect(await questionLexemes(f.db, 'Where do I currently live these days?')).toEqual(['live']);
    // "current" of a thing stays, and a question of its frame alone asks with its words
    expect(await questionLexemes(f.db, 'How does alternating current work?')).toContain('current');
    expect(await questionLexemes(f.db, 'What about these days?')).toEqual(['day']);
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

/**
 * An idiom's words say something else than it means (hybrid.ts IDIOMS): "for a living" asks
 * for a job, not where one lives; "get to work" for a commute. The idioms' meaning is read by
 * the keyword half; the vector half embeds the question as asked.
 */
describe.each(DRIVERS)('an idiom is read for what it means [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);
  const rank = async (query: string, method: 'keyword' | 'hybrid') =>
    (await run({ user_id: 'omar', query, method })).episodes.map((e) => e.atomic_facts[0]!.content);

  beforeAll(async () => {
    f = await openFixture(driver);
    const facts = [
      'Omar works as a dental hygienist in Leeds.',
      // "living" and "lives": the idiom's word would find them first
      'Omar lives in a flat above a bakery.',
      'Omar says the cost of living keeps rising.',
      'Omar cycles eight miles each way on his commute.',
      // "got" and "work": the idiom's words
      'Omar got his work laptop repaired.',
    ];
    for (const [i, fact] of facts.entries())
      await seedEpisode(f, { owners: ['omar'], ts: T0 + i * HOUR, subject: `a talk ${i}`, facts: [fact] });
  });
  afterAll(() => f.database.drop());

  for (const method of ['keyword', 'hybrid'] as const) {
    it(`${method}: "What does Omar do for a living?" ranks his job above the memories of living`, async () => {
      const living = await rank('What does Omar do for a living?', method);
      const job = living.findIndex((c) => /dental hygienist/.test(c));
      expect(job).toBeGreaterThanOrEqual(0);
      expect(job).toBeLessThan(living.findIndex((c) => /cost of living/.test(c)));
      expect(job).toBeLessThan(living.findIndex((c) => /lives in a flat/.test(c)));
    });
    it(`${method}: "How does Omar get to work?" finds his commute before the memories of work`, async () => {
      const work = await rank('How does Omar get to work?', method);
      const commute = work.findIndex((c) => /on his commute/.test(c));
      // hybrid: the vector half finds his job near "work" too
      if (method === 'keyword') expect(commute).toBe(0);
      else expect(commute).toBeLessThan(work.findIndex((c) => /work laptop/.test(c)));
    });
  }
});
