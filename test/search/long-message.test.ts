import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';

/**
 * A person who writes long messages to an assistant, offline (offline extractor and
 * embedder), over real HTTP: what one long request mentions in passing (a partner who gets
 * seasick, a language being learned, a cabin booked, a budget) is each an atomic fact of its
 * own, and a question about it finds that fact first, by hybrid and by keyword search,
 * among the facts of other conversations.
 */
describe.each(DRIVERS)('a long message mentioning several things in passing [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const add = (session_id: string, messages: unknown[]) =>
    s.call('POST', '/api/v2/memory/add', { key, body: { session_id, messages } });
  const flush = (session_id: string) => s.call('POST', '/api/v2/memory/flush', { key, body: { session_id } });
  const search = async (body: Record<string, unknown>) => {
    const r = await s.call('POST', '/api/v2/memory/search', { key, body: { user_id: 'lena', ...body } });
    expect(r.status).toBe(200);
    return r.body.data;
  };
  /** The best-scored fact of a search, over every episode returned. */
  const topFact = (data: any): string =>
    data.episodes.flatMap((e: any) => e.atomic_facts).sort((a: any, b: any) => b.score - a.score)[0]
      ?.content ?? '';

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    const sessions: [string, number, unknown[]][] = [
      [
        'cooking',
        T0,
        [
          user(
            'lena',
            'I want to get better at baking bread. My sourdough keeps coming out flat.',
            T0,
            'Lena',
          ),
          assistant(
            'helper',
            'A flat loaf often means the starter is weak. Feed it twice a day for a week.',
            T0 + MIN,
          ),
          user(
            'lena',
            'I bake on Sundays with my neighbour Ruth, she has a wood oven.',
            T0 + 2 * MIN,
            'Lena',
          ),
          assistant(
            'helper',
            'A wood oven is great for crust. Preheat it for at least an hour.',
            T0 + 3 * MIN,
          ),
        ],
      ],
      [
        'trip',
        T0 + 3 * DAY,
        [
          user(
            'lena',
            "I'm putting together a packing list for a two-week trip to Norway in June. " +
              "My partner Idris is coming too, and he gets seasick, so we're skipping the ferries. " +
              'I broke my left wrist skiing in January and it still aches when I carry heavy bags. ' +
              'We booked a cabin near Tromsø through a friend of my brother. ' +
              "I've been learning Norwegian on an app for about three months. " +
              'My budget for gear is around 400 euros. ' +
              'Could you suggest what to pack for the weather up there?',
            T0 + 3 * DAY,
            'Lena',
          ),
          assistant(
            'helper',
            'Pack layers: a waterproof shell, a fleece and merino base layers. June nights are bright, so ' +
              'bring an eye mask. A light daypack will spare your wrist.',
            T0 + 3 * DAY + MIN,
          ),
        ],
      ],
      [
        'work',
        T0 + 6 * DAY,
        [
          user(
            'lena',
            'I started a new job as a data analyst at a shipping company last month.',
            T0 + 6 * DAY,
            'Lena',
          ),
          assistant('helper', 'Congratulations! What tools do you use there?', T0 + 6 * DAY + MIN),
          user(
            'lena',
            'Mostly SQL and spreadsheets, and my manager wants dashboards by spring.',
            T0 + 6 * DAY + 2 * MIN,
            'Lena',
          ),
        ],
      ],
    ];
    for (const [id, , messages] of sessions) {
      expect((await add(id, messages)).status).toBe(200);
      expect((await flush(id)).status).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(['hybrid', 'keyword'])(
    'each question about a passing mention finds its fact first (%s)',
    async (method) => {
      const cases: [string, RegExp][] = [
        ['What language is Lena learning?', /learning Norwegian/],
        ['Where did Lena book a cabin?', /cabin near Tromsø/],
        ["What is Lena's budget for gear?", /400 euros/],
        ["Who in Lena's life gets seasick?", /Idris .*seasick/],
        ['How did Lena hurt her wrist?', /broke .*wrist skiing/],
      ];
      for (const [query, want] of cases)
        expect(topFact(await search({ query, method })), query).toMatch(want);
    },
  );
});
