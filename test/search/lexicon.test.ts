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
});
