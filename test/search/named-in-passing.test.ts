import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { searcher, startTestServer, type TestServer, topFact } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';

/**
 * A person names someone of her life in passing, in a request about something else ("a
 * resignation letter to my manager Dana"); later she asks for the name. Offline, over REST:
 * the extractor keeps the name as a fact of its own ("User's manager is named Dana."), so
 * the question finds it first, not a pet "named" in another session.
 */
describe.each(DRIVERS)('a name given in passing [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const add = (session_id: string, messages: unknown[]) =>
    s.call('POST', '/api/v2/memory/add', { key, body: { session_id, messages } });
  const search = searcher(
    () => s,
    () => key,
    'zoe',
  );

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-n');
    const sessions: [string, string][] = [
      [
        'Can you help me write a resignation letter to my manager Dana? I leave at the end of June.',
        'Of course. Thank her for the chance to grow, give your last day, and offer to hand over your work.',
      ],
      [
        'I adopted a puppy! A spaniel named Biscuit from the shelter on Elm Road.',
        'Lovely! Spaniels need plenty of walks and something to chew.',
      ],
      [
        'What does a product manager do all day?',
        'A product manager talks to customers, sets priorities with engineers and writes the plan for each release.',
      ],
    ];
    for (const [i, [said, answer]] of sessions.entries()) {
      const at = T0 + i * DAY;
      await add(`s${i}`, [user('zoe', said, at, 'Zoe'), assistant('helper', answer, at + MIN)]);
      await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: `s${i}` } });
    }
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(['hybrid', 'keyword'])(
    '"What is my old manager\'s name?" finds the name first (%s)',
    async (method) => {
      expect(topFact(await search({ query: "What is my old manager's name?", method }))).toMatch(
        /manager is named Dana/,
      );
    },
  );
});
