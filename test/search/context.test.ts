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
import { answerOf, fact, T, turn } from '../helpers/search-data.js';

/** One profile of Kim's with these items. */
const profileOf = (explicit_info: unknown[], implicit_traits: unknown[] = []): SearchData['profiles'] => [
  { id: 'p1', user_id: 'kim', profile_data: { summary: '', explicit_info, implicit_traits } } as never,
];

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
    // left out for room: the view; m1 was skipped as a repeat of f1, and is not counted
    expect(p.text).toMatch(/\n\(1 more omitted to fit max_tokens\)$/);
    expect(p.omitted).toBe(1);
  });

  it('says nothing was omitted when every unit fit and one only repeated another', () => {
    const p = packContext(contextUnits(answer()), 1000);
    expect(p.units.map((u) => u.id)).toEqual(['f1', 'm3', 'f2']);
    expect(p.text).not.toMatch(/omitted/);
    expect(p.omitted).toBe(0);
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

  it('shows reported speech in its shortest form, so a budget holds more facts; the fact is unchanged', () => {
    const data = answerOf(
      [
        fact('f1', 'Nora said that the kiln in the garage reached its full heat on Tuesday.', 0.9, ['m1']),
        fact('f2', 'Theo told Nora that the glaze needs a second firing before the fair.', 0.8, ['m2']),
        fact(
          'f3',
          'Asked by Theo "Did the big vase survive?", Nora answered: It cracked along the rim.',
          0.7,
          ['m3', 'm4'],
        ),
        fact('f4', 'The gallery owner said that the fair opens at noon on the first Saturday.', 0.6, ['m5']),
      ],
      [],
    );
    const units = contextUnits(data);
    expect(units.map((u) => u.text)).toEqual([
      '- Nora: the kiln in the garage reached its full heat on Tuesday.',
      '- Theo to Nora: the glaze needs a second firing before the fair.',
      '- Theo asked "Did the big vase survive?"; Nora: It cracked along the rim.',
      // a subject that is no speaker's name keeps its verb
      '- The gallery owner said that the fair opens at noon on the first Saturday.',
    ]);
    // the first three and the closing line fit 60 tokens (240 characters) only as shown
    expect(packContext(units, 60).units.map((u) => u.id)).toEqual(['f1', 'f2', 'f3']);
    expect(data.episodes[0]!.atomic_facts[0]!.content).toBe(
      'Nora said that the kiln in the garage reached its full heat on Tuesday.',
    );
  });

  it('shows a line said again in the same words once, resting on the messages of both', () => {
    const data = answerOf(
      [
        fact('f1', 'Assistant advised Nora to let the kiln cool for a full day before opening it.', 0.9, [
          'm1',
        ]),
        fact('f2', 'Assistant advised Nora to let the kiln cool for a full day before opening it.', 0.85, [
          'm2',
        ]),
        fact('f3', 'Nora sells her bowls at the Sunday market in Ghent.', 0.6, ['m5']),
      ],
      [
        turn('m3', 'How long does a glaze take to dry?', 0.8),
        { ...turn('m4', 'How long does a glaze take to dry?', 0.8), timestamp: '2025-06-11T09:00:00.000Z' },
      ],
    );
    const units = contextUnits(data);
    expect(units.map((u) => u.id)).toEqual(['f1', 'f2', 'm3', 'm4', 'f3']);
    // the five lines take ~300 characters; the three different ones fit 60 tokens
    const p = packContext(units, 60);
    expect(p.units.map((u) => u.id)).toEqual(['f1', 'm3', 'f3']);
    expect(p.text).not.toMatch(/omitted/);
    expect(p.units[0]!.sources).toEqual(['m1', 'm2']);
    expect(p.units[1]!.sources).toEqual(['m3', 'm4']);
    // the units handed in are not changed
    expect(units[0]!.sources).toEqual(['m1']);
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

  it("shows a turn of content items by their text and the others' names, never empty", () => {
    const data = answerOf(
      [],
      [
        {
          ...turn('m1', '', 0.6),
          content: [{ type: 'image', name: 'marmalade-kitten.jpg', uri: 'https://example.invalid/k.jpg' }],
        } as never,
        {
          ...turn('m2', '', 0.5),
          content: [
            { type: 'text', text: 'My bike is blue.' },
            { type: 'image', name: 'bike.jpg' },
          ],
        } as never,
      ],
    );
    const text = contextUnits(data).map((u) => u.text);
    expect(text).toEqual([
      '- [2025-04-02] Nora: [image: marmalade-kitten.jpg]',
      '- [2025-04-02] Nora: My bike is blue. [image: bike.jpg]',
    ]);
  });

  it('names a sender known by a handle alone by its role, as the facts do, and keeps a name-like id', () => {
    const as = (t: ReturnType<typeof turn>, sender_id: string, sender_name: string | null, role = 'user') =>
      ({ ...t, sender_id, sender_name, role }) as never;
    const data = answerOf(
      [],
      [
        as(turn('m1', 'My shifts now start at dawn.', 0.6), 'u-42', null),
        as(turn('m2', 'Pack a small breakfast the night before.', 0.5), 'assistant', null, 'assistant'),
        as(turn('m3', 'Mine start at noon.', 0.4), 'carol', null),
        as(turn('m4', 'Same here.', 0.3), 'u-7', 'Dev'),
      ],
    );
    expect(contextUnits(data).map((u) => u.text)).toEqual([
      '- [2025-04-02] User: My shifts now start at dawn.',
      '- [2025-04-02] Assistant: Pack a small breakfast the night before.',
      '- [2025-04-02] carol: Mine start at noon.',
      '- [2025-04-02] Dev: Same here.',
    ]);
  });

  it('cuts no emoji in half and copes with a turn of any number of sentences', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const parrot = answerOf(
      [],
      [turn('m1', `Our parrot Kiwi ${'\u{1F99C}'.repeat(300)} sings all day.`, 0.6)],
    );
    parrot.metadata.queries = ['parrot Kiwi'];
    for (const budget of [100, 1000])
      expect(packContext(contextUnits(parrot, undefined, budget * 4), budget).text).not.toMatch(lone);
    // one argument per sentence to Math.max overflowed the stack (a 500 from recall)
    const chatty = answerOf([], [turn('m1', `${'Fine. '.repeat(150_000)}My tortoise is called Brick.`, 0.6)]);
    chatty.metadata.queries = ['tortoise Brick'];
    expect(contextUnits(chatty)[0]!.text).toMatch(
      /^- \[2025-04-02\] Nora: … (Fine\. )+My tortoise is called Brick\.$/,
    );
  });

  it('fits a long turn or fact to the smallest budget instead of leaving it out', () => {
    const data = answerOf(
      [fact('f1', `Nora keeps a hamster called Biscuit${', and a wheel'.repeat(40)}.`, 0.7, ['m2'])],
      [
        turn(
          'm1',
          `${'We talked about the weekend plans at length. '.repeat(12)}Our hamster Biscuit escaped.`,
          0.6,
        ),
      ],
    );
    data.metadata.queries = ['hamster Biscuit'];
    const p = packContext(contextUnits(data, undefined, 100 * 4), 100);
    expect(p.units.map((u) => u.id)).toEqual(['f1']);
    expect(p.text).toMatch(
      /^- Nora keeps a hamster called Biscuit, and a wheel.*…\n\(1 more omitted to fit max_tokens\)$/,
    );
    expect(p.text.length).toBeLessThanOrEqual(400);
    const turnOnly = answerOf([], data.messages as never);
    turnOnly.metadata.queries = ['hamster Biscuit'];
    const alone = packContext(contextUnits(turnOnly, undefined, 400), 100);
    expect(alone.units.map((u) => u.id)).toEqual(['m1']);
    expect(alone.text).toContain('Our hamster Biscuit escaped.');
  });

  it("skips a fact that repeats a profile item's turns, as it skips a fact's turn", () => {
    const data = answerOf([fact('f1', "Kim's sister Lea is a pilot.", 0.8, ['m1'])], []);
    data.profiles = profileOf(
      [
        {
          item_id: 'ei_1',
          category: 'relationship',
          description: "Kim's sister Lea is a pilot.",
          source_message_ids: ['m1'],
          updated_at: T,
        },
      ],
      [
        {
          item_id: 'it_1',
          trait: 'curious',
          description: 'Kim asks many questions.',
          source_message_ids: ['m1', 'm2'],
          updated_at: T,
        },
      ],
    );
    const p = packContext(contextUnits(data), 1000);
    expect(p.text).toBe("- (profile) Kim's sister Lea is a pilot.\n- (profile) Kim asks many questions.");
    expect(p.omitted).toBe(0);
  });

  it("shows a fact or turn of a profile item's message that tells more than the item", () => {
    const item = {
      item_id: 'ei_1',
      category: 'pet',
      description: 'Kim has a dog named Miso.',
      source_message_ids: ['m1'],
      updated_at: T,
    };
    const withFact = answerOf([fact('f1', 'The vet said Miso needs a kidney diet.', 0.8, ['m1'])], []);
    withFact.profiles = profileOf([item]);
    expect(packContext(contextUnits(withFact), 1000).text).toBe(
      '- (profile) Kim has a dog named Miso.\n- The vet said Miso needs a kidney diet.',
    );
    const withTurn = answerOf([], [turn('m1', 'Miso has to eat a kidney diet now, the vet said.', 0.7)]);
    withTurn.profiles = profileOf([item]);
    expect(packContext(contextUnits(withTurn), 1000).units.map((u) => u.id)).toEqual(['ei_1', 'm1']);
  });

  it('puts the profile items about the question first and gives the others a quarter of the budget', () => {
    const data = answerOf([fact('f1', 'Kim booked a cooking class in Bologna for May.', 0.8, ['m1'])], []);
    data.metadata.queries = ['What is my dog called?'];
    const item = (n: number, category: string, description: string) => ({
      item_id: `ei_${n}`,
      category,
      description,
      source_message_ids: [`p${n}`],
      updated_at: T,
    });
    const others = Array.from({ length: 40 }, (_, n) =>
      item(n, 'other', `Kim keeps note number ${n} about the garden shed and the allotment.`),
    );
    data.profiles = profileOf([
      ...others.slice(0, 20),
      item(99, 'pet', "Kim's dog is called Bolt."),
      ...others.slice(20),
    ]);
    const p = packContext(contextUnits(data), 300);
    expect(p.units[0]!.text).toBe("- (profile) Kim's dog is called Bolt.");
    const aside = p.units.filter((u) => u.kind === 'profile' && u.id !== 'ei_99');
    expect(aside.length).toBeGreaterThan(0);
    expect(aside.reduce((n, u) => n + u.text.length + 1, 0)).toBeLessThanOrEqual(300 * 4 * 0.25);
    expect(p.units.map((u) => u.id)).toContain('f1');
  });
});
