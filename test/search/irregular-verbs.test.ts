import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

/**
 * A question asks with the verb's plain form ("What did Nora buy?", "Who did Theo meet?")
 * while a memory tells it in the past ("bought", "met", "ran"), and the english stemmer does not
 * join an irregular verb's forms: the bridged query (lexicon.ts) holds the other forms too.
 */
describe.each(DRIVERS)('an irregular verb asked in its plain form finds its past [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0,
      subject: 'a bowl',
      facts: ['Nora bought a carved walnut bowl at the Sunday market in Ghent.'],
    });
    // shorter, so each ranks first on the question's own words alone
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + HOUR,
      subject: 'a favourite place',
      facts: ['Nora loves the Sunday market for its cheese stalls.'],
    });
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + 2 * HOUR,
      subject: 'climbing',
      facts: ['On Saturday Theo met his old climbing partner Ruth at the bouldering gym.'],
    });
    await seedEpisode(f, {
      owners: ['nora'],
      ts: T0 + 3 * HOUR,
      subject: 'a complaint',
      facts: ['Theo hates the Saturday traffic in town.'],
    });
    await seedEpisode(f, {
      owners: ['ines'],
      ts: T0 + 4 * HOUR,
      subject: 'a race',
      facts: ['Ines ran the harbour 10K in 52 minutes in May.'],
    });
    await seedEpisode(f, {
      owners: ['ines'],
      ts: T0 + 5 * HOUR,
      subject: 'a visit',
      facts: ["Ines's cousin visited in May."],
    });
  });
  afterAll(() => f.database.drop());

  for (const method of ['keyword', 'hybrid'] as const) {
    it(`${method}: "What did Nora buy at the Sunday market?" finds what she bought`, async () => {
      const r = await run({ user_id: 'nora', query: 'What did Nora buy at the Sunday market?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/bought a carved walnut bowl/);
    });
    it(`${method}: "Who did Theo meet on Saturday?" finds whom he met`, async () => {
      const r = await run({ user_id: 'nora', query: 'Who did Theo meet on Saturday?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/met his old climbing partner Ruth/);
    });
    it(`${method}: "What did Ines run in May?" finds what she ran`, async () => {
      const r = await run({ user_id: 'ines', query: 'What did Ines run in May?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/ran the harbour 10K/);
    });
  }
});
