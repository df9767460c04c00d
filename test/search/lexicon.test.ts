import { describe, expect, it } from 'vitest';
import { CURRENT_STATE, lexemeRoot } from '../../src/engine/search/lexicon.js';

describe('search lexicon', () => {
  it('cuts derivational endings to a root of at least four letters', () => {
    expect(lexemeRoot('mentorship')).toBe('mentor');
    expect(lexemeRoot('allergi')).toBe('allerg');
    expect(lexemeRoot('cat')).toBeUndefined();
    expect(lexemeRoot('tree')).toBeUndefined();
  });

  it('recognises questions about how things are now', () => {
    expect(CURRENT_STATE.test('Where does Tomas live now?')).toBe(true);
    expect(CURRENT_STATE.test('Is she still working at the bakery?')).toBe(true);
    expect(CURRENT_STATE.test('Where did Tomas live in 2019?')).toBe(false);
  });

  it('does not read the still of "still life" or "still water" as how things are now', () => {
    expect(CURRENT_STATE.test('What still life painting did I finish for the show?')).toBe(false);
    expect(CURRENT_STATE.test('Which still lifes did Ana paint?')).toBe(false);
    expect(CURRENT_STATE.test('Do I prefer still water or sparkling?')).toBe(false);
    expect(CURRENT_STATE.test('Does my brother still live in Faro?')).toBe(true);
    expect(CURRENT_STATE.test('Ana still lives in Lyon, right?')).toBe(true);
    expect(CURRENT_STATE.test('Is the still life I painted still on the wall?')).toBe(true);
    expect(CURRENT_STATE.test('What still life do I have now?')).toBe(true);
  });
});
