import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, searcher, startTestServer, type TestServer, topFact } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';

/**
 * Over real HTTP, both drivers, offline: "What shifts do I work now?" asks about her shifts
 * (current-state.ts newestWins: the word asked about is the slot), and the newest of her own facts
 * about them answers it; the assistant's later advice on night shifts is no answer of hers,
 * though it is newer and holds the word.
 */
describe.each(DRIVERS)('search: the current state of what she said, not of the advice [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const search = searcher(
    () => s,
    () => key,
    'maya',
  );

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    await addAndFlush(s, key, 'job', [
      user(
        'maya',
        'I took a job as a pharmacist at the Alder Street clinic, and my shifts start at dawn.',
        T0,
      ),
      assistant('helper', 'Congratulations on the new job! Long shifts get easier with a routine.', T0 + MIN),
    ]);
    await addAndFlush(s, key, 'nights', [
      user('maya', 'I switched to night shifts at the hospital this week.', T0 + 30 * DAY),
      assistant(
        'helper',
        'For night shifts, try a light meal before you start and keep your bedroom dark.',
        T0 + 30 * DAY + MIN,
      ),
    ]);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(['hybrid', 'keyword'])(
    '"What shifts do I work now?" finds her newest own mention first [%s]',
    async (method) => {
      const d = await search({ query: 'What shifts do I work now?', method, top_k: 10 });
      expect(topFact(d)).toMatch(/switched to night shifts at the hospital/);
    },
  );
});
