import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';

/**
 * Over real HTTP, both drivers: a question that names one of two people who talked weighs the
 * facts and turns about the other lower (src/engine/search/people.ts). The people are known
 * from the answer's turns, so the same search narrowed to episodes (no turns) shows the
 * scores before the step.
 */
describe.each(DRIVERS)('search: a question that names a person [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const search = async (body: Record<string, unknown>) => {
    const r = await s.call('POST', '/api/v2/memory/search', {
      key,
      body: { user_id: 'nora', method: 'keyword', top_k: 10, ...body },
    });
    expect(r.status).toBe(200);
    return r.body.data;
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    await addAndFlush(s, key, 'hobbies', [
      user('nora', 'I collect sea glass from the beaches near Ghent.', T0, 'Nora'),
      user('theo', 'I collect vintage fountain pens, mostly from the fifties.', T0 + MIN, 'Theo'),
      user('nora', 'My sea glass collection fills three jars now.', T0 + 2 * MIN, 'Nora'),
      user('theo', 'My pen collection has forty pens and I collect inks too.', T0 + 3 * MIN, 'Theo'),
    ]);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('weighs what is about Theo at 0.8 when the question names Nora, and re-sorts', async () => {
    const q = 'What does Nora collect?';
    const full = await search({ query: q });
    const before = await search({ query: q, memory_type: 'episode' });
    const factsOf = (d: any) =>
      new Map<string, { content: string; score: number }>(
        d.episodes.flatMap((e: any) => e.atomic_facts.map((f: any) => [f.id, f])),
      );
    const was = factsOf(before);
    const now = factsOf(full);
    expect(now.size).toBeGreaterThan(1);
    let lowered = 0;
    for (const [id, f] of now) {
      const about = /\btheo\b/i.test(f.content) && !/\bnora\b/i.test(f.content);
      const expected = about ? Math.round(was.get(id)!.score * 0.8 * 1e6) / 1e6 : was.get(id)!.score;
      expect(f.score, f.content).toBeCloseTo(expected, 5);
      if (about) lowered++;
    }
    expect(lowered).toBeGreaterThan(0);
    for (const e of full.episodes) {
      const scores = e.atomic_facts.map((f: any) => f.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
    // the turns: Theo's below Nora's
    expect(full.messages.length).toBe(4);
    expect(full.messages.slice(0, 2).map((m: any) => m.sender_id)).toEqual(['nora', 'nora']);
  });

  it('changes nothing for a question that names both', async () => {
    const q = 'What do Nora and Theo collect?';
    const full = await search({ query: q });
    const before = await search({ query: q, memory_type: 'episode' });
    expect(full.episodes.map((e: any) => e.atomic_facts.map((f: any) => [f.id, f.score]))).toEqual(
      before.episodes.map((e: any) => e.atomic_facts.map((f: any) => [f.id, f.score])),
    );
  });
});
