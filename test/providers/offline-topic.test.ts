import { describe, expect, it } from 'vitest';
import type { SegmentMessage } from '../../src/core/ports.js';
import { OfflineExtractor } from '../../src/providers/offline/index.js';

const T0 = Date.UTC(2024, 2, 14, 9, 30);
let n = 0;
const msg = (sender: string, content: string, extra: Partial<SegmentMessage> = {}): SegmentMessage => {
  n++;
  return {
    id: `t${n}`,
    session_id: 's',
    sender_id: sender,
    sender_name: sender,
    role: 'user',
    content,
    timestamp: T0 + n * 60_000,
    tool_calls: null,
    tool_call_id: null,
    ...extra,
  };
};

/** A well-established conversation about a woodcarving class. */
const buffer: SegmentMessage[] = [
  msg('Ann', 'I signed up for a woodcarving class at the community workshop downtown.'),
  msg('Ben', 'Nice! Woodcarving seems tricky, the chisels slip so easily on hard oak.'),
  msg('Ann', 'Exactly, the teacher showed us how to control the water and layer the colors slowly.'),
  msg('Ben', 'Are you carving birds or bowls in the class?'),
  msg('Ann', 'Birds mostly, the teacher loves carving owls and herons from soft linden.'),
];

const ex = new OfflineExtractor();

describe('offline extractor: topic shift', () => {
  it('stays on topic when the next message continues it', async () => {
    const next = msg('Ben', 'I would love to see your owl carving when the class is over.');
    expect(await ex.isTopicShift(buffer, next)).toBe(false);
  });

  it('shifts on a cue phrase that introduces new words', async () => {
    const next = msg('Ben', 'By the way, did you hear that the bakery on Main Street closed for good?');
    expect(await ex.isTopicShift(buffer, next)).toBe(true);
    const anyway = msg('Ben', 'Anyway, changing the subject: my landlord is raising the rent in June.');
    expect(await ex.isTopicShift(buffer, anyway)).toBe(true);
  });

  it('does not shift on a cue phrase that stays on the topic', async () => {
    const next = msg('Ben', 'By the way, which carving teacher runs the woodcarving class?');
    expect(await ex.isTopicShift(buffer, next)).toBe(false);
  });

  it('shifts without a cue only on a long message sharing nothing with a rich context', async () => {
    const next = msg(
      'Ben',
      'My landlord just announced rent increases, plumbing repairs and noisy construction work next door.',
    );
    expect(await ex.isTopicShift(buffer, next)).toBe(true);
    const short = msg('Ben', 'Rent went up.');
    expect(await ex.isTopicShift(buffer, short)).toBe(false);
  });

  it('never shifts on tool messages, tool calls, short replies or answers to a question', async () => {
    const tool = msg(
      'tool',
      'Landlord database: rent increased, plumbing scheduled, construction permits issued.',
      {
        role: 'tool',
        tool_call_id: 'c1',
      },
    );
    expect(await ex.isTopicShift(buffer, tool)).toBe(false);
    const calling = msg('bot', 'Looking up rental listings, plumbing contractors and construction permits.', {
      role: 'assistant',
      tool_calls: [{ id: 'c2', type: 'function', function: { name: 'search', arguments: '{}' } }],
    });
    expect(await ex.isTopicShift(buffer, calling)).toBe(false);
    expect(await ex.isTopicShift(buffer, msg('Ben', 'Cool, thanks!'))).toBe(false);
    const asked = [...buffer, msg('Ann', 'What else is new with you?')];
    const answer = msg(
      'Ben',
      'My landlord just announced rent increases, plumbing repairs and noisy construction.',
    );
    expect(await ex.isTopicShift(asked, answer)).toBe(false);
  });

  it('never shifts with an empty or thin buffer', async () => {
    const next = msg(
      'Ben',
      'My landlord just announced rent increases, plumbing repairs and noisy construction work.',
    );
    expect(await ex.isTopicShift([], next)).toBe(false);
    expect(await ex.isTopicShift([msg('Ann', 'Hi there!')], next)).toBe(false);
  });

  it('is deterministic', async () => {
    const next = msg('Ben', 'By the way, did you hear that the bakery on Main Street closed for good?');
    const runs = await Promise.all([1, 2, 3].map(() => ex.isTopicShift(buffer, next)));
    expect(new Set(runs).size).toBe(1);
  });
});
