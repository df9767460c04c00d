import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, searcher, startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';

/**
 * Over real HTTP, both drivers, offline: a person who asks an assistant general questions
 * about knives in three conversations, in a fourth mentions in passing the knife she bought
 * and in a fifth the one she uses. Asked about herself ("Which knife do I use?"), the
 * conversations of requests and answers tell nothing about her, though they share more of
 * the question's words: their episodes count at 0.8 (src/engine/search/own-words.ts
 * toldByUser), so one where she told of her own knife comes first, by hybrid and by keyword.
 * "How much did I spend on kitchen knives?" also needs the plural's and the amount's bridges
 * (lexicon.ts: "knives" / "knife", "dollars"). A question about what the assistant said keeps
 * its answers first.
 */
describe.each(DRIVERS)('search: conversations in which the user told nothing of herself [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const search = searcher(
    () => s,
    () => key,
    'lena',
  );
  const subjects = (d: any): string[] =>
    d.episodes.map((e: any) => e.atomic_facts.map((f: any) => f.content).join(' | '));

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    const asks = [
      [
        'Which knife should I use for bread?',
        'Use a serrated bread knife for bread: its teeth cut through the crust without crushing the soft inside. A long knife lets you use the whole blade in one stroke.',
      ],
      [
        'How do I sharpen a kitchen knife?',
        'Sharpen a kitchen knife on a whetstone every few months and hone the edge before each use. Hold the knife at a steady angle of about fifteen degrees and draw it across the stone in smooth strokes.',
      ],
      [
        'How should I store a chef knife?',
        'Store a chef knife on a magnetic strip or in a knife block, not loose in a drawer, where the edge knocks against other tools. Dry the knife by hand right after each use.',
      ],
    ];
    for (const [i, [q, a]] of asks.entries())
      await addAndFlush(s, key, `asks-${i}`, [
        user('lena', q!, T0 + i * DAY),
        assistant('helper', a!, T0 + i * DAY + MIN),
      ]);
    await addAndFlush(s, key, 'cooking', [
      user(
        'lena',
        'I want to cook more at home this year. I bought a proper chef knife today, a Victorinox for 55 dollars. What should I cook first?',
        T0 + 5 * DAY,
      ),
      assistant(
        'helper',
        'Start with a simple vegetable stir fry: it uses the chef knife for everything and cooks in ten minutes.',
        T0 + 5 * DAY + MIN,
      ),
    ]);
    await addAndFlush(s, key, 'birthday', [
      user(
        'lena',
        'My sister gave me a Japanese chef knife for my birthday, and it is the only knife I use now. Any ideas for a quick dinner?',
        T0 + 9 * DAY,
      ),
      assistant(
        'helper',
        'A vegetable stir fry with rice is quick and uses a chef knife for everything.',
        T0 + 9 * DAY + MIN,
      ),
    ]);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(['hybrid', 'keyword'])('her own purchase comes first [%s]', async (method) => {
    const d = await search({ query: 'How much did I spend on kitchen knives?', method, top_k: 10 });
    expect(subjects(d)[0]).toMatch(/Victorinox for 55 dollars/);
  });

  it.each(['hybrid', 'keyword'])(
    "her own words come before requests that share the question's words [%s]",
    async (method) => {
      const d = await search({ query: 'Which knife do I use?', method, top_k: 10 });
      // A conversation about her own knives, before every conversation of requests.
      expect(subjects(d)[0]).toMatch(/Japanese chef knife|Victorinox/);
    },
  );

  it.each(['hybrid', 'keyword'])(
    'a question about what the assistant said keeps its answers first [%s]',
    async (method) => {
      const d = await search({
        query: 'What did you tell me about sharpening a kitchen knife?',
        method,
        top_k: 10,
      });
      expect(subjects(d)[0]).toMatch(/whetstone/);
    },
  );
});
