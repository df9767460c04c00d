import { describe, expect, it } from 'vitest';
import type { SearchData } from '../../src/contract/search.js';
import {
  type ContextUnit,
  contextUnits,
  DEFAULT_UNITS,
  KEYWORD_UNITS,
  packContext,
} from '../../src/engine/search/context.js';
import { LONG_GARAGE_NOTE } from '../helpers/messages.js';
import { answerOf, fact, turn } from '../helpers/search-data.js';

const answer = (): SearchData =>
  answerOf(
    [
      fact('f1', 'Nora signed up for a glass-blowing workshop in Ghent.', 0.8, ['m1']),
      fact('f2', 'Theo bought a second-hand kiln.', 0.5, ['m2']),
    ],
    [
      turn('m1', 'I signed up for a glass-blowing workshop in Ghent!', 0.75),
      turn('m3', 'The workshop starts on the first Saturday of May.', 0.6),
    ],
    {
      subject: 'glass workshop, kiln',
      summary: `Nora and Theo talked about ${'the glass workshop and the new kiln '.repeat(20)}`,
    },
  );

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

  it('shows the part of a long turn that the question is about, not only its first 480 characters', () => {
    const long = LONG_GARAGE_NOTE;
    expect(long.length).toBeGreaterThan(480);
    const data = answerOf([], [turn('m9', long, 0.6)]);
    data.metadata.queries = ['What diet does the cat need?'];
    const text = contextUnits(data).find((u) => u.id === 'm9')!.text;
    expect(text).toContain('the vet said our cat Pumpkin needs a special kidney diet from now on.');
    expect(text).toMatch(/^- \[2025-04-02\] Nora: …/); // cut before the part shown
    expect(text.length).toBeLessThanOrEqual('- [2025-04-02] Nora: '.length + 480);
    // a question none of whose words the turn holds: its start, as before
    data.metadata.queries = ['zebra'];
    expect(contextUnits(data).find((u) => u.id === 'm9')!.text).toMatch(
      /^- \[2025-04-02\] Nora: We spent most/,
    );
    // a turn that fits is shown whole
    const short = answerOf([], [turn('m1', 'The vet said Pumpkin needs a kidney diet.', 0.6)]);
    short.metadata.queries = ['What diet does the cat need?'];
    expect(contextUnits(short)[0]!.text).toBe(
      '- [2025-04-02] Nora: The vet said Pumpkin needs a kidney diet.',
    );
  });
});
