import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, searchOf, seedMessage, T0 } from './seed.js';

/**
 * The people and own-words steps lower turns after the search ranked them (people.ts,
 * own-words.ts). top_k and min_score apply to what those steps leave: a turn the steps lift
 * into the top_k is returned, and a lowered turn below min_score is not, in `messages` and
 * in `unprocessed_messages` alike.
 */
describe.each(DRIVERS)('search: top_k and min_score after the turns are lowered [%s]', (driver) => {
  let f: Fixture;
  const ids: Record<string, string> = {};
  const run = searchOf(() => f);
  const scored = (ms: { id: string; score?: number | undefined }[]) => ms.map((m) => [m.id, m.score]);

  beforeAll(async () => {
    f = await openFixture(driver);
    // Extracted: her own mention, and an assistant's reply holding the question's word more often.
    ids.hers = await seedMessage(f, {
      session: 's1',
      sender: 'ines',
      content: 'I work at the harbour museum',
      state: 'extracted',
      ts: T0,
    });
    ids.reply = await seedMessage(f, {
      session: 's1',
      sender: 'helper',
      role: 'assistant',
      owners: ['ines'],
      content: 'Work can be tiring; short breaks at work help',
      state: 'extracted',
      ts: T0 + 1000,
    });
    // Not yet extracted, in another session she took part in.
    ids.open = await seedMessage(f, {
      session: 's2',
      sender: 'ines',
      content: 'my balcony tomatoes ripen',
      ts: T0,
    });
    ids.openReply = await seedMessage(f, {
      session: 's2',
      sender: 'helper',
      role: 'assistant',
      content: 'balcony tomatoes need balcony sun and tomatoes need water',
      ts: T0 + 1000,
    });
  });
  afterAll(() => f.database.drop());

  /**
   * Her turn and the assistant's reply, by the list a question finds them in: extracted
   * (`messages`) and not yet extracted (`unprocessed_messages`).
   */
  const cases = [
    { list: 'messages', query: 'Where do I work?', hers: 'hers', reply: 'reply' },
    { list: 'unprocessed_messages', query: 'How are my balcony tomatoes?', hers: 'open', reply: 'openReply' },
  ] as const;

  for (const method of ['keyword', 'hybrid'] as const) {
    it(`${method}: top_k 1 keeps the turn first after the steps, not the one first before them`, async () => {
      for (const c of cases) {
        const all = (await run({ user_id: 'ines', query: c.query, method, top_k: 10 }))[c.list];
        expect(all.map((m) => m.id)).toEqual([ids[c.hers], ids[c.reply]]);
        const one = (await run({ user_id: 'ines', query: c.query, method, top_k: 1 }))[c.list];
        expect(scored(one)).toEqual(scored(all.slice(0, 1)));
      }
    });
  }

  it('min_score is a bar for the lowered scores', async () => {
    for (const c of cases) {
      const [hers, reply] = (await run({ user_id: 'ines', query: c.query, method: 'hybrid', top_k: 10 }))[
        c.list
      ];
      const bar = (hers!.score! + reply!.score!) / 2;
      const floored = (await run({ user_id: 'ines', query: c.query, method: 'hybrid', min_score: bar }))[
        c.list
      ];
      expect(floored.map((m) => m.id)).toEqual([ids[c.hers]]);
    }
  });
});
