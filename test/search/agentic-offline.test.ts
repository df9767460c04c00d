import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import {
  type AgenticRound,
  EXPANSION_WEIGHT,
  type RoundHit,
  runAgentic,
} from '../../src/engine/search/agentic.js';

/** Offline agentic search (src/engine/search/agentic.ts): what the expansion is built from. */
describe('agentic search without an LLM', () => {
  const round = (hits: RoundHit[]) => {
    const expandedFrom: string[][] = [];
    const r: AgenticRound = {
      retrieve: async () => hits,
      expand: async (texts) => {
        expandedFrom.push(texts);
        return `question ${texts.length}`;
      },
    };
    return { r, expandedFrom };
  };

  it('expands from the hits that matched the question, not those that scored 0', async () => {
    const { r, expandedFrom } = round([
      { text: '[2024-05-08] Carla teaches chemistry in Braga.', score: 0.42 },
      { text: 'Ann packs light for city trips: a case that fits, not a plan.', score: 0.1 },
      { text: '[2024-05-09] Ann adopted a grey cat named Miso.', score: 0 },
    ]);
    const plan = await runAgentic('question', r, undefined, silentLogger);
    expect(expandedFrom).toEqual([
      [
        '[2024-05-08] Carla teaches chemistry in Braga.',
        'Ann packs light for city trips: a case that fits, not a plan.',
      ],
    ]);
    expect(plan).toMatchObject({
      queries: ['question', 'question 2'],
      weights: [1, EXPANSION_WEIGHT],
      rounds: 2,
      degraded: true,
    });
  });

  it('does not expand when no hit matched the question', async () => {
    const { r, expandedFrom } = round([
      { text: '[2024-05-08] Carla teaches chemistry in Braga.', score: 0 },
      { text: '[2024-05-09] Ann adopted a grey cat named Miso.', score: 0 },
    ]);
    const plan = await runAgentic('🐱', r, undefined, silentLogger);
    expect(expandedFrom).toEqual([]);
    expect(plan).toEqual({
      queries: ['🐱'],
      weights: [1],
      rounds: 1,
      degraded: true,
      reason: 'no LLM configured',
    });
  });
});
