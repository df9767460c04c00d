import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, searcher, startTestServer, type TestServer, topFact } from '../helpers/engram.js';
import { assistant, DAY, LONG_GARAGE_NOTE, LONG_TRIP_REQUEST, MIN, T0, user } from '../helpers/messages.js';
import { httpClient, ok } from '../mcp/helpers.js';

/**
 * A person who writes long messages to an assistant, offline (offline extractor and
 * embedder), over real HTTP: what one long request mentions in passing (a partner who gets
 * seasick, a language being learned, a cabin booked, a budget) is each an atomic fact of its
 * own, and a question about it finds that fact first, by hybrid and by keyword search,
 * among the facts of other conversations. A long message not yet extracted is shown in
 * `recall` by the part the question is about.
 */
describe.each(DRIVERS)('a long message mentioning several things in passing [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let mcp: Client;
  const search = searcher(
    () => s,
    () => key,
    'lena',
  );

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    const sessions: [string, unknown[]][] = [
      [
        'cooking',
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
        [
          user('lena', LONG_TRIP_REQUEST, T0 + 3 * DAY, 'Lena'),
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
        [
          user(
            'lena',
            'Since March I repair church organs for a small workshop outside Leiden.',
            T0 + 6 * DAY,
            'Lena',
          ),
          assistant('helper', 'What a rare trade! What does a usual day look like?', T0 + 6 * DAY + MIN),
          user(
            'lena',
            'Mostly tuning old pipes, and my boss wants me to learn voicing by winter.',
            T0 + 6 * DAY + 2 * MIN,
            'Lena',
          ),
        ],
      ],
    ];
    for (const [id, messages] of sessions) await addAndFlush(s, key, id, messages);
    // Said, not yet extracted (no boundary, no flush): what matters comes last.
    const said = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 'garage', messages: [user('lena', LONG_GARAGE_NOTE, T0 + 9 * DAY, 'Lena')] },
    });
    expect(said.status).toBe(200);
    mcp = await httpClient(s.url, key);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
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

  it('recall shows the part of a long message not yet extracted that the question is about', async () => {
    const r = await ok(mcp, 'recall', {
      query: 'What diet does the cat need?',
      user_id: 'lena',
      max_tokens: 300,
    });
    expect(r.context).toContain('the vet said our cat Pumpkin needs a special kidney diet from now on.');
    expect(Math.ceil(r.context.length / 4)).toBeLessThanOrEqual(300);
  });
});
