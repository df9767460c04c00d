import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_WEIGHT } from '../../src/engine/search/own-words.js';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, searcher, startTestServer, type TestServer, topFact } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';
import { httpClient, ok } from '../mcp/helpers.js';

/**
 * Over real HTTP, both drivers, offline: a person who mentions her new job in passing while
 * asking an assistant for advice, and an assistant whose long replies are about the same
 * things. "Where do I work?" shares its one word with the assistant's advice ("ask at work",
 * "before work"), not with her own mention; a question she asks about herself weighs what no
 * user wrote at 0.8 (src/engine/search/own-words.ts), so her own fact comes first, by hybrid
 * and by keyword, and first in what MCP `recall` puts into a small context; beyond each
 * episode's best fact, the answer carries only facts resting on her own turns. A question about
 * what the assistant said keeps its scores and its facts.
 */
describe.each(DRIVERS)('search: a question the user asks about herself [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let mcp: Client;
  const search = searcher(
    () => s,
    () => key,
    'maya',
  );
  const facts = (d: any): { content: string; score: number; source_message_ids: string[] }[] =>
    d.episodes.flatMap((e: any) => e.atomic_facts);

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    await addAndFlush(s, key, 'job', [
      user(
        'maya',
        "I start a new job as a nurse at the children's ward of Riverside Hospital on Monday. Any tips for surviving night shifts?",
        T0,
      ),
      assistant(
        'helper',
        'Night shifts are hard on sleep. Keep your bedroom dark and cool, and sleep at the same hours after each shift. ' +
          'Many nurses eat a light meal before work and avoid caffeine in the last hours of the shift. ' +
          'Plan your days off so that your sleep does not swing back and forth.',
        T0 + MIN,
      ),
    ]);
    await addAndFlush(s, key, 'stress', [
      user('maya', 'How do people in stressful jobs keep from burning out?', T0 + DAY),
      assistant(
        'helper',
        'People in stressful jobs such as nurses, doctors and firefighters often rely on routines: regular exercise, ' +
          'time with friends and clear limits on overtime. Talking with a counsellor helps many of them. ' +
          'A hospital often offers free support to its staff, so ask at work what is there for you.',
        T0 + DAY + MIN,
      ),
    ]);
    mcp = await httpClient(s.url, key);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await s?.close();
  });

  it.each(['hybrid', 'keyword'])('"Where do I work?" finds her own mention first [%s]', async (method) => {
    const d = await search({ query: 'Where do I work?', method, top_k: 10 });
    expect(topFact(d)).toMatch(/nurse at the children's ward of Riverside Hospital/);
    expect(facts(d).length).toBeGreaterThan(1);
  });

  it.each(['hybrid', 'keyword'])(
    'an episode carries, beyond its best fact, only what she told; asked of the assistant, what it said too [%s]',
    async (method) => {
      const mine = await search({ query: 'Where do I work?', method, top_k: 10 });
      const yours = await search({ query: 'Where do you work?', method, top_k: 10 });
      const assistantTurns = new Set(
        yours.messages.filter((m: any) => m.role === 'assistant').map((m: any) => m.id as string),
      );
      const saidBeyondBest = (d: any) =>
        d.episodes.flatMap((e: any) =>
          e.atomic_facts
            .slice(1)
            .filter((f: any) => f.source_message_ids.some((id: string) => assistantTurns.has(id))),
        );
      expect(saidBeyondBest(yours).length).toBeGreaterThan(0);
      expect(saidBeyondBest(mine)).toEqual([]);
    },
  );

  it("offline agentic search expands the question with words of her mention, not the facts' dates", async () => {
    const d = await search({ query: 'Where do I work?', method: 'agentic', top_k: 10 });
    expect(d.metadata.degraded).toBe(true);
    const expanded: string = d.metadata.queries[1];
    expect(expanded.startsWith('Where do I work? ')).toBe(true);
    const added = expanded.slice('Where do I work? '.length).split(' ');
    expect(added.length).toBeGreaterThan(0);
    const mention = topFact(d);
    expect(mention).toMatch(/Riverside Hospital/);
    for (const w of added) expect(mention.toLowerCase(), expanded).toContain(w.toLowerCase());
  });

  it('recall over MCP puts her own mention first in a small context', async () => {
    const r = await ok(mcp, 'recall', { query: 'Where do I work?', user_id: 'maya', max_tokens: 120 });
    const first = (r.context as string).split('\n')[0] ?? '';
    expect(first).toMatch(/nurse at the children's ward of Riverside Hospital/);
  });

  it('weighs the facts and turns resting on what the assistant said at 0.8, against the same search asked of the assistant', async () => {
    // "you" and "I" are stopwords of both routes: the two questions rank the same memories
    // with the same route scores, and only the step tells them apart.
    const mine = await search({ query: 'Where do I work?', method: 'keyword', top_k: 10 });
    const yours = await search({ query: 'Where do you work?', method: 'keyword', top_k: 10 });
    expect(topFact(yours)).not.toMatch(/Riverside Hospital/);
    const assistantTurns = new Set(
      yours.messages.filter((m: any) => m.role === 'assistant').map((m: any) => m.id as string),
    );
    expect(assistantTurns.size).toBeGreaterThan(0);
    const was = new Map(facts(yours).map((f) => [f.content, f]));
    let lowered = 0;
    for (const f of facts(mine)) {
      const before = was.get(f.content)!;
      const byAssistant = f.source_message_ids.some((id) => assistantTurns.has(id));
      const expected = byAssistant ? Math.round(before.score * ASSISTANT_WEIGHT * 1e6) / 1e6 : before.score;
      expect(f.score, f.content).toBeCloseTo(expected, 5);
      if (byAssistant) lowered++;
    }
    expect(lowered).toBeGreaterThan(0);
    const turnWas = new Map(yours.messages.map((m: any) => [m.id, m.score]));
    for (const m of mine.messages) {
      const before = turnWas.get(m.id) as number;
      expect(m.score).toBeCloseTo(m.role === 'assistant' ? before * ASSISTANT_WEIGHT : before, 5);
    }
    const scores = mine.messages.map((m: any) => m.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
  });
});
