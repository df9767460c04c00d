import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, searcher, startTestServer, type TestServer, topFact } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';

/**
 * Over real HTTP, both drivers, offline: a question that counts what the user has done or has
 * ("How many sea swims have I done?", "How many hens do I keep?") asks how things stand now,
 * as "now" does (current-state.ts newestWins): her newest count answers it, not the first one she
 * gave. A count asked in the past ("did I") is not about now.
 */
describe.each(DRIVERS)('search: a count of her own is the newest she gave [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const search = searcher(
    () => s,
    () => key,
    'ines',
  );

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    await addAndFlush(s, key, 'spring', [
      user('ines', 'I did my second winter sea swim at Praia Norte, the water was 12 degrees!', T0),
      assistant('helper', 'Brave! Cold water swims are great for recovery, keep them short.', T0 + MIN),
      user('ines', 'We keep four hens in the garden, they lay most mornings.', T0 + 2 * MIN),
    ]);
    await addAndFlush(s, key, 'summer', [
      user('ines', 'Yesterday I did my fifth winter sea swim, the longest so far.', T0 + 40 * DAY),
      user('ines', 'A fox got into the coop, so we keep three hens now.', T0 + 40 * DAY + MIN),
      assistant(
        'helper',
        'Sorry about the hen. A buried wire skirt keeps foxes out of a coop.',
        T0 + 40 * DAY + 2 * MIN,
      ),
    ]);
    // A correction in the same conversation: both counts are facts of one episode.
    await addAndFlush(s, key, 'choir', [
      user('ines', 'Our choir has two tenors this season, which is not enough.', T0 + 50 * DAY),
      assistant(
        'helper',
        'Two tenors can work if they sing out. Could an alto cover the low part?',
        T0 + 50 * DAY + MIN,
      ),
      user('ines', 'Sorry, I miscounted: our choir has three tenors, not two.', T0 + 50 * DAY + 2 * MIN),
    ]);
    // An amount: "How much ... now?" asks with "much", which no fact of it holds.
    await addAndFlush(s, key, 'rent-then', [
      user('ines', 'My rent is 900 euros a month for the flat in Alfama, bills included.', T0 + 60 * DAY),
      assistant('helper', 'That is a fair rent for Alfama with bills included.', T0 + 60 * DAY + MIN),
    ]);
    await addAndFlush(s, key, 'rent-now', [
      user('ines', 'Ugh, the landlord raised my rent to 980 euros.', T0 + 90 * DAY),
      assistant('helper', 'Check your contract: rises are often capped once a year.', T0 + 90 * DAY + MIN),
    ]);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(['hybrid', 'keyword'])(
    '"How many winter sea swims have I done?" finds the newest count first [%s]',
    async (method) => {
      const d = await search({ query: 'How many winter sea swims have I done?', method, top_k: 10 });
      expect(topFact(d)).toMatch(/fifth winter sea swim/);
    },
  );

  it.each(['hybrid', 'keyword'])(
    '"How many hens do I keep?" finds the newest count first [%s]',
    async (method) => {
      const d = await search({ query: 'How many hens do I keep?', method, top_k: 10 });
      expect(topFact(d)).toMatch(/three hens/);
    },
  );

  it.each(['hybrid', 'keyword'])(
    '"How many tenors are in our choir?" finds the correction first, within one conversation [%s]',
    async (method) => {
      const d = await search({ query: 'How many tenors are in our choir?', method, top_k: 10 });
      expect(topFact(d)).toMatch(/three tenors/);
    },
  );

  it.each(['hybrid', 'keyword'])(
    '"How much is my rent now?" ranks the newest amount and its conversation first [%s]',
    async (method) => {
      const d = await search({ query: 'How much is my rent now?', method, top_k: 10 });
      expect(topFact(d)).toMatch(/980 euros/);
      expect(d.episodes[0].atomic_facts.map((f: any) => f.content).join(' ')).toMatch(/980 euros/);
    },
  );
});
