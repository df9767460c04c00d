import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { bestFacts } from '../../src/engine/search/best-facts.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, seedEpisode, T0 } from './seed.js';

const ep = (...scores: number[]) => ({ atomic_facts: scores.map((score, k) => ({ id: `f${k}`, score })) });
const scoresOf = (es: { atomic_facts: { score: number }[] }[]) =>
  es.map((e) => e.atomic_facts.map((f) => f.score));

describe('bestFacts: the facts a search answer carries', () => {
  it('keeps the n best facts of the answer and each episode its best, in their order', () => {
    const episodes = [ep(0.9, 0.5, 0.4, 0.3), ep(0.8, 0.7, 0.2), ep(0.1, 0.05)];
    expect(scoresOf(bestFacts(episodes, 3))).toEqual([[0.9], [0.8, 0.7], [0.1]]);
    expect(scoresOf(bestFacts(episodes, 5))).toEqual([[0.9, 0.5, 0.4], [0.8, 0.7], [0.1]]);
    expect(scoresOf(bestFacts(episodes, 100))).toEqual(scoresOf(episodes));
    expect(scoresOf(bestFacts(episodes, 0))).toEqual([[0.9], [0.8], [0.1]]);
    // the input is left as it was
    expect(scoresOf(episodes)).toEqual([
      [0.9, 0.5, 0.4, 0.3],
      [0.8, 0.7, 0.2],
      [0.1, 0.05],
    ]);
  });

  it('breaks ties by the earlier episode, then the earlier fact', () => {
    const episodes = [ep(0.9, 0.5, 0.5), ep(0.5, 0.5)];
    const kept = bestFacts(episodes, 3).map((e) => e.atomic_facts.map((f) => f.id));
    expect(kept).toEqual([['f0', 'f1', 'f2'], ['f0']]);
    expect(bestFacts([ep(0.9, 0.5), ep(0.5, 0.5)], 2).map((e) => e.atomic_facts.map((f) => f.id))).toEqual([
      ['f0', 'f1'],
      ['f0'],
    ]);
  });

  it('leaves an episode without facts as it is', () => {
    expect(scoresOf(bestFacts([ep(), ep(0.3, 0.2)], 1))).toEqual([[], [0.3]]);
  });
});

describe.each(DRIVERS)('search answer: the best facts of its episodes [%s]', (driver) => {
  let f: Fixture;
  let trip: Awaited<ReturnType<typeof seedEpisode>>;
  let garden: Awaited<ReturnType<typeof seedEpisode>>;
  const run = (input: Record<string, unknown>, allFacts = false) =>
    f.search.search({ tenantId: 'tenant-a' }, SearchInput.parse({ user_id: 'noor', ...input }), { allFacts });

  beforeAll(async () => {
    f = await openFixture(driver);
    trip = await seedEpisode(f, {
      owners: ['noor'],
      subject: 'kayak trip, weekend plans',
      facts: [
        'Noor paddled a kayak across the bay on Saturday.',
        'Noor packed sandwiches for the weekend.',
        'Noor charged her phone before leaving.',
        'Noor said the weather was mild.',
        'Noor bought new hiking socks.',
        'Noor kayak club meets on Sundays.',
      ],
    });
    garden = await seedEpisode(f, {
      owners: ['noor'],
      ts: T0 + 24 * HOUR,
      subject: 'garden, kayak storage',
      facts: ['Noor stores the kayak in the garden shed.', 'Noor planted tulips by the fence.'],
    });
  });
  afterAll(() => f.database.drop());

  it('carries the top_k best facts across its episodes, each episode at least its best', async () => {
    for (const method of ['keyword', 'vector', 'hybrid'] as const) {
      const full = await run({ query: 'kayak', method, top_k: 2 }, true);
      const cut = await run({ query: 'kayak', method, top_k: 2 });
      expect(cut.episodes.map((e) => e.id)).toEqual(full.episodes.map((e) => e.id));
      expect(full.episodes.map((e) => e.id).sort()).toEqual([trip.id, garden.id].sort());
      // every fact with its score when asked for all
      expect(full.episodes.find((e) => e.id === trip.id)!.atomic_facts).toHaveLength(6);
      expect(full.episodes.find((e) => e.id === garden.id)!.atomic_facts).toHaveLength(2);
      const best = full.episodes
        .flatMap((e) => e.atomic_facts)
        .sort((a, b) => b.score - a.score)
        .slice(0, 2)
        .map((x) => x.id);
      for (const [i, e] of cut.episodes.entries()) {
        const all = full.episodes[i]!.atomic_facts;
        // the episode's best first, then only facts among the answer's two best, in order
        expect(e.atomic_facts[0]).toEqual(all[0]);
        expect(e.atomic_facts.slice(1).every((x) => best.includes(x.id))).toBe(true);
        expect(e.atomic_facts).toEqual(all.filter((x, j) => j === 0 || best.includes(x.id)));
      }
      const carried = cut.episodes.flatMap((e) => e.atomic_facts.map((x) => x.id));
      expect(carried.length).toBeLessThanOrEqual(2 + cut.episodes.length);
      expect(best.every((id) => carried.includes(id))).toBe(true);
    }
  });

  it('a larger top_k carries more of the facts', async () => {
    const facts = async (top_k: number) =>
      (await run({ query: 'kayak', method: 'keyword', top_k })).episodes.flatMap((e) => e.atomic_facts);
    // top_k 2: the two best facts and each of the two episodes' best, at most 4 of the 8
    const few = (await facts(2)).length;
    expect(few).toBeGreaterThanOrEqual(2);
    expect(few).toBeLessThanOrEqual(4);
    expect(await facts(100)).toHaveLength(8);
  });
});
