import { describe, expect, it } from 'vitest';
import { renderRecall } from '../../src/mcp/render.js';
import { answerOf, fact, turn } from '../helpers/search-data.js';

/** Nora and Theo talk about what they collect; Theo's fact scores higher. */
const answer = () =>
  answerOf(
    [
      fact('f1', 'Theo collects fountain pens.', 0.9, ['m1']),
      fact('f2', 'Nora collects sea glass.', 0.8, ['m2']),
    ],
    [turn('m1', 'I collect fountain pens.', 0.6, 'Theo'), turn('m2', 'I collect sea glass.', 0.5)],
  );

describe('recall text for a question that names a person', () => {
  it('puts what is about that person first', () => {
    const lines = renderRecall('What does Nora collect?', answer(), 300).text.split('\n');
    expect(lines[0]).toBe('- Nora collects sea glass.');
    expect(lines[1]).toBe('- Theo collects fountain pens.');
  });

  it('keeps the order of the scores when the question names nobody', () => {
    const lines = renderRecall('What do people collect?', answer(), 300).text.split('\n');
    expect(lines[0]).toBe('- Theo collects fountain pens.');
    expect(lines[1]).toBe('- Nora collects sea glass.');
  });
});
