import { describe, expect, it } from 'vitest';
import { askedWord, asksCurrentState, CURRENT_STATE, lexemeRoot } from '../../src/engine/search/lexicon.js';

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

  it('reads a count of her own asked in the present as a question about now, and its noun as the word asked', () => {
    expect(asksCurrentState('How many half marathons have I run?')).toBe(true);
    expect(asksCurrentState('How many hens do I keep?')).toBe(true);
    expect(asksCurrentState('How many members are vegan in my book club?')).toBe(true);
    expect(asksCurrentState('How many books have I read so far?')).toBe(true);
    expect(asksCurrentState('How many half marathons did I run in 2023?')).toBe(false);
    expect(asksCurrentState('How many half marathons has Theo run?')).toBe(false);
    expect(asksCurrentState('How long is the drive to Faro?')).toBe(false);
    expect(askedWord('How many winter sea swims have I done?')).toBe('swims');
    expect(askedWord('How much money have we saved for the trip?')).toBe('money');
    expect(askedWord('How many times have I been to the dentist?')).toBeUndefined();
    expect(askedWord('How much have I saved?')).toBeUndefined();
    expect(askedWord('What shifts do I work now?')).toBe('shifts');
  });
});
