import { describe, expect, it } from 'vitest';
import {
  aboutSomeoneElse,
  answerPeople,
  focusOnNamedPeople,
  OTHER_PERSON_WEIGHT,
  type PeopleHits,
} from '../../src/engine/search/people.js';
import { answerOf, fact, turn } from '../helpers/search-data.js';

/** Nora and Theo talk; facts and turns about each of them, one fact about neither. */
const hits = (): PeopleHits => {
  const d = answerOf(
    [
      fact('f1', 'Theo collects vintage fountain pens.', 0.9, ['m5']),
      fact('f2', "Nora's hobby is collecting sea glass.", 0.8, ['m6']),
      fact('f3', 'The glass workshop is in Ghent.', 0.78, ['m7']),
    ],
    [
      turn('m8', 'My pens are all from the fifties.', 0.85, 'Theo Lind'),
      turn('m9', 'I found green sea glass on the beach today.', 0.7),
    ],
  );
  return { episodes: d.episodes, messages: d.messages, unprocessed: [] };
};
const facts = (h: PeopleHits) => h.episodes[0]!.atomic_facts.map((f) => [f.id, f.score]);
const turns = (h: PeopleHits) => h.messages.map((m) => [m.id, m.score]);

describe('a question that names a person', () => {
  it('lowers the facts and turns about someone else, and re-sorts them', () => {
    expect(OTHER_PERSON_WEIGHT).toBe(0.8);
    for (const q of ['What does Nora collect?', "what is nora's hobby", 'What does NORA collect']) {
      const h = focusOnNamedPeople(q, hits());
      expect(facts(h), q).toEqual([
        ['f2', 0.8],
        ['f3', 0.78],
        ['f1', 0.72],
      ]);
      expect(turns(h), q).toEqual([
        ['m9', 0.7],
        ['m8', 0.68],
      ]);
    }
    // by any word of the display name
    const lind = focusOnNamedPeople('Which pens does Lind collect?', hits());
    expect(facts(lind)[0]).toEqual(['f1', 0.9]);
    expect(facts(lind)).toContainEqual(['f2', 0.64]);
  });

  it('changes nothing when the question names nobody, or everybody', () => {
    for (const q of ['What does everyone collect?', 'What do Nora and Theo collect?']) {
      const h = hits();
      expect(focusOnNamedPeople(q, h), q).toBe(h);
    }
  });

  it('knows the people from the turns only', () => {
    const h = hits();
    expect(answerPeople(h.messages).map((p) => [...p].sort())).toEqual([['lind', 'theo'], ['nora']]);
    const none = { ...h, messages: [] };
    expect(focusOnNamedPeople('What does Nora collect?', none)).toBe(none);
  });

  it('leaves unscored turns (a pinned session) in their order', () => {
    const h = hits();
    const pinned = h.messages.map(({ score: _, ...m }) => m);
    const out = focusOnNamedPeople('What does Nora collect?', { ...h, unprocessed: pinned });
    expect(out.unprocessed).toEqual(pinned);
    expect(turns(out)[0]).toEqual(['m9', 0.7]);
  });

  it('tells a unit about someone else from one about the person named or about nobody', () => {
    const other = aboutSomeoneElse('What does Nora collect?', [new Set(['nora']), new Set(['theo'])])!;
    expect(other('Theo collects pens.')).toBe(true);
    expect(other('Theo gave Nora a pen.')).toBe(false);
    expect(other('The workshop is in Ghent.')).toBe(false);
    expect(
      aboutSomeoneElse('What does Ines collect?', [new Set(['nora']), new Set(['theo'])]),
    ).toBeUndefined();
  });

  it('knows a person whose name is a common word, when the question writes it as a name', () => {
    const d = answerOf(
      [
        fact('f1', 'Nora collects stamps from Iceland.', 0.9, ['m1']),
        fact('f2', 'Once a month, Will collects old maps of Flanders.', 0.8, ['m2']),
      ],
      [
        turn('m1', 'I collect stamps, mostly from Iceland.', 0.8),
        turn('m2', 'I collect old maps.', 0.7, 'Will'),
      ],
    );
    const h = { episodes: d.episodes, messages: d.messages, unprocessed: [] };
    expect(answerPeople(h.messages).map((p) => [...p])).toEqual([['nora'], ['will']]);
    expect(facts(focusOnNamedPeople('What does Will collect?', h))).toEqual([
      ['f2', 0.8],
      ['f1', 0.72],
    ]);
    expect(turns(focusOnNamedPeople('What does Will collect?', h))).toEqual([
      ['m2', 0.7],
      ['m1', 0.64],
    ]);
    // the common word itself names nobody: "will" in lower case, or opening the question
    expect(turns(focusOnNamedPeople('What will Nora collect next?', h))).toEqual([
      ['m1', 0.8],
      ['m2', 0.56],
    ]);
    for (const q of ['What will Nora collect next?', 'Will they collect stamps?'])
      expect(facts(focusOnNamedPeople(q, h)), q).toEqual(
        q.includes('Nora')
          ? [
              ['f1', 0.9],
              ['f2', 0.64],
            ]
          : [
              ['f1', 0.9],
              ['f2', 0.8],
            ],
      );
  });
});
