import { describe, expect, it } from 'vitest';
import type { SearchData } from '../../src/contract/search.js';
import {
  asksForSeveral,
  type ContextUnit,
  contextUnits,
  DEFAULT_UNITS,
  KEYWORD_UNITS,
  packContext,
  SPREAD_BELOW_TOKENS,
  spreadUnits,
} from '../../src/engine/search/context.js';

const T = '2025-04-02T10:00:00.000Z';
const fact = (id: string, content: string, score: number, sources: string[]) => ({
  id,
  content,
  score,
  source_message_ids: sources,
  timestamp: T,
});
const turn = (id: string, content: string, score: number) => ({
  id,
  app_id: 'default',
  project_id: 'default',
  session_id: 's1',
  sender_id: 'nora',
  sender_name: 'Nora',
  role: 'user' as const,
  content,
  timestamp: T,
  tool_calls: null,
  tool_call_id: null,
  score,
});

function answer(): SearchData {
  return {
    episodes: [
      {
        id: 'e1',
        subject: 'glass workshop, kiln',
        summary: `Nora and Theo talked about ${'the glass workshop and the new kiln '.repeat(20)}`,
        timestamp: T,
        score: 0.7,
        atomic_facts: [
          fact('f1', 'Nora signed up for a glass-blowing workshop in Ghent.', 0.8, ['m1']),
          fact('f2', 'Theo bought a second-hand kiln.', 0.5, ['m2']),
        ],
      } as never,
    ],
    profiles: [],
    agent_cases: [],
    agent_skills: [],
    unprocessed_messages: [],
    messages: [
      turn('m1', 'I signed up for a glass-blowing workshop in Ghent!', 0.75),
      turn('m3', 'The workshop starts on the first Saturday of May.', 0.6),
    ],
    metadata: { method: 'hybrid', degraded: false, queries: ['q'], took_ms: 1 } as never,
  };
}

describe('recall context: units packed whole into a token budget', () => {
  it('ranks facts and turns together, best first, a turn at a share of its score', () => {
    const units = contextUnits(answer());
    expect(units.map((u) => `${u.kind}:${u.id}`)).toEqual(['fact:f1', 'message:m1', 'message:m3', 'fact:f2']);
    expect(units[1]!.score).toBeCloseTo(0.75 * DEFAULT_UNITS.messageWeight);
    expect(units[0]!.text).toBe('- Nora signed up for a glass-blowing workshop in Ghent.');
    expect(units[1]!.text).toBe('- [2025-04-02] Nora: I signed up for a glass-blowing workshop in Ghent!');
  });

  it('weighs turns lower against facts in a keyword answer (raw BM25 scores)', () => {
    const data = answer();
    data.metadata.method = 'keyword';
    const units = contextUnits(data);
    expect(units.find((u) => u.id === 'm1')!.score).toBeCloseTo(0.75 * KEYWORD_UNITS.messageWeight);
    expect(KEYWORD_UNITS.messageWeight).toBeLessThan(DEFAULT_UNITS.messageWeight);
  });

  it('can add short episode views and day-prefixed facts', () => {
    const units = contextUnits(answer(), { messageWeight: 1, factDay: true, viewWeight: 0.9 });
    expect(units.map((u) => `${u.kind}:${u.id}`)).toEqual([
      'fact:f1',
      'message:m1',
      'episode:e1',
      'message:m3',
      'fact:f2',
    ]);
    expect(units[0]!.text).toBe('- [2025-04-02] Nora signed up for a glass-blowing workshop in Ghent.');
    expect(units[1]!.text).toBe('- [2025-04-02] Nora: I signed up for a glass-blowing workshop in Ghent!');
  });

  it('never exceeds the budget, skips a unit that does not fit and moves on to smaller ones', () => {
    const units = contextUnits(answer(), { messageWeight: 1, factDay: true, viewWeight: 0.9 });
    for (const budget of [20, 40, 80, 120, 300, 1000]) {
      const p = packContext(units, budget);
      expect(Math.ceil(p.text.length / 4)).toBeLessThanOrEqual(budget);
      expect(p.tokens).toBeLessThanOrEqual(budget);
      for (const u of p.units) expect(p.text).toContain(u.text);
    }
    // the episode view (~190 tokens) does not fit 120 tokens; the turn after it does
    const p = packContext(units, 120);
    expect(p.units.map((u) => u.id)).toEqual(['f1', 'm3', 'f2']);
    expect(p.text).toMatch(/\(2 more omitted to fit max_tokens\)$/);
  });

  it('keeps room for the closing line only when a unit is left out, and only as much as it needs', () => {
    const unit = (id: string): ContextUnit => ({
      kind: 'fact',
      id,
      text: `- ${id.repeat(38)}`, // 40 characters
      score: 1,
      sources: [`m-${id}`],
    });
    // three units and their two newlines: 122 characters, within 31 tokens (124)
    const all = packContext([unit('a'), unit('b'), unit('c')], 31);
    expect(all.units.map((u) => u.id)).toEqual(['a', 'b', 'c']);
    expect(all.text).not.toMatch(/omitted/);
    // with a fourth that cannot fit, two units and the 34-character closing line do
    const some = packContext([unit('a'), unit('b'), unit('c'), unit('d')], 31);
    expect(some.units.map((u) => u.id)).toEqual(['a', 'b']);
    expect(some.text).toMatch(/\n\(2 more omitted to fit max_tokens\)$/);
    expect(some.text.length).toBeLessThanOrEqual(124);
  });

  it('skips a turn already shown through the fact made of it', () => {
    const p = packContext(contextUnits(answer()), 1000);
    expect(p.units.map((u) => u.id)).not.toContain('m1');
    expect(p.units.map((u) => u.id)).toContain('m3');
  });

  describe('a question asking for several things, in a small budget', () => {
    // Three trips told in three conversations; the first conversation also holds four
    // more facts about the same trip, scored above the other trips.
    const unit = (id: string, session: string, score: number): ContextUnit => ({
      kind: 'fact',
      id,
      text: `- Ines mentioned a trip (${id}).`,
      score,
      sources: [`m-${id}`],
      session,
    });
    const units = [
      unit('a1', 'sa', 0.9),
      unit('a2', 'sa', 0.85),
      unit('a3', 'sa', 0.84),
      unit('a4', 'sa', 0.83),
      unit('a5', 'sa', 0.82),
      unit('b1', 'sb', 0.8),
      unit('c1', 'sc', 0.78),
    ];
    const budget = 48; // five units and the closing line

    it('tells such questions from the others', () => {
      for (const q of [
        'Which cities has Ines visited?',
        'What books does Omar like?',
        'What has Ines cooked for her neighbours?',
        'Where have they travelled together?',
      ])
        expect(asksForSeveral(q), q).toBe(true);
      for (const q of [
        'Where does Ines live?',
        'What is the name of Omar’s cat?',
        'When did Ines fly to Oslo?',
      ])
        expect(asksForSeveral(q), q).toBe(false);
    });

    it('takes units of several conversations instead of filling the context from one', () => {
      const plain = packContext(units, budget, 'Where did Ines go in spring?');
      expect(plain.units.map((u) => u.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
      const spread = packContext(units, budget, 'Which cities has Ines visited?');
      expect(spread.units.map((u) => u.id)).toContain('b1');
      expect(spread.units.map((u) => u.id)).toContain('c1');
      expect(spread.units[0]!.id).toBe('a1');
      expect(spread.tokens).toBeLessThanOrEqual(budget);
    });

    it('keeps the plain order from SPREAD_BELOW_TOKENS up and without a question', () => {
      expect(packContext(units, budget).units.map((u) => u.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
      const big = packContext(units, SPREAD_BELOW_TOKENS, 'Which cities has Ines visited?');
      expect(big.units.map((u) => u.id)).toEqual(units.map((u) => u.id));
    });

    it('orders every unit once, lowering each by its session count', () => {
      const order = spreadUnits(units, 0.1).map((u) => u.id);
      expect([...order].sort()).toEqual(units.map((u) => u.id).sort());
      // a2 counts 0.85 * 0.9 = 0.765 after a1: b1 (0.8) and c1 (0.78) come before it
      expect(order.slice(0, 4)).toEqual(['a1', 'b1', 'c1', 'a2']);
    });
  });
});
