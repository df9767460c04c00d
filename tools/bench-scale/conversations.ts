/**
 * Conversations for the scale benchmarks: LoCoMo turns read from a path (never copied), or
 * invented two-person chats when no path is given. Either way a conversation is a list of
 * sessions, each a day apart, turn i at the session's start + 30 s · i.
 */
import { readFileSync } from 'node:fs';

export interface Turn {
  speaker: string;
  text: string;
}
export interface Conversation {
  speakers: [string, string];
  sessions: { start: number; turns: Turn[] }[];
  /**
   * The second speaker writes as an assistant (role `assistant`), as with an agent and its
   * user: the memory made from it is owned by one person instead of two. Unset: two people.
   */
  assistant?: boolean;
}
export interface BenchMessage {
  sender_id: string;
  sender_name: string;
  role: 'user' | 'assistant';
  content: string;
  timestamp: number;
}

/** The conversations with their second speaker as an assistant (see Conversation.assistant). */
export const withAssistant = (convs: readonly Conversation[]): Conversation[] =>
  convs.map((c) => ({ ...c, assistant: true }));

/** A turn's sender and role in `conv`, its ids suffixed with `suffix` (none: as spoken). */
export function senderOf(conv: Conversation, t: Turn, suffix = '') {
  const assistant = conv.assistant === true && t.speaker === conv.speakers[1];
  return {
    sender_id: `${assistant ? 'assistant' : t.speaker.toLowerCase()}${suffix}`,
    sender_name: t.speaker,
    role: assistant ? ('assistant' as const) : ('user' as const),
  };
}

/** "1:56 pm on 8 May, 2023" -> Unix ms (UTC). */
export function sessionTime(s: string): number {
  const m = /(\d+):(\d+)\s*(am|pm)\s+on\s+(\d+)\s+(\w+),?\s+(\d{4})/i.exec(s);
  if (!m) throw new Error(`unparsed session date-time: ${s}`);
  let h = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === 'pm') h += 12;
  return Date.parse(`${m[4]} ${m[5]} ${m[6]} ${String(h).padStart(2, '0')}:${m[2]}:00 UTC`);
}

/** LoCoMo's conversations (speaker turns per session; an image's caption as "[shares ...]"). */
export function readLocomo(path: string): Conversation[] {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as { conversation: Record<string, unknown> }[];
  return samples.map(({ conversation: c }) => {
    const sessions: Conversation['sessions'] = [];
    for (let n = 1; Array.isArray(c[`session_${n}`]); n++) {
      const turns = (c[`session_${n}`] as { speaker: string; text: string; blip_caption?: string }[]).map(
        (t) => ({
          speaker: t.speaker,
          text: t.blip_caption ? `${t.text} [shares ${t.blip_caption}]` : t.text,
        }),
      );
      sessions.push({ start: sessionTime(String(c[`session_${n}_date_time`])), turns });
    }
    return { speakers: [String(c['speaker_a']), String(c['speaker_b'])], sessions };
  });
}

const PEOPLE = ['Maren', 'Tobias', 'Ines', 'Kwame', 'Yuki', 'Dario', 'Selma', 'Ravi', 'Lotte', 'Emeka'];
const OPENERS = ['Guess what,', 'So,', 'Honestly,', 'By the way,', 'Oh,', 'Yesterday', 'This week'];
const DOINGS = [
  'I signed up for a pottery class at the community centre',
  'my brother finally fixed the old sailboat',
  'we adopted a grey kitten called Pebble',
  'I started training for a half marathon in the autumn',
  'my team shipped the new billing dashboard',
  'I tried baking sourdough with rye flour',
  'we drove up to the lakes and camped two nights',
  'I have been reading a novel about lighthouse keepers',
  'my daughter won the regional chess tournament',
  'I switched to night shifts at the clinic',
  'we repainted the kitchen a pale green',
  'I booked flights to visit my aunt in Valparaiso',
];
const REPLIES = [
  'That sounds wonderful, how did it go?',
  'No way! Tell me more about it.',
  'I remember you mentioning that last month.',
  'That must have taken a lot of patience.',
  'What made you decide to do that?',
  'I would love to see pictures sometime.',
  'How is everyone at home taking it?',
];
const DETAILS = [
  'It took longer than I expected, but it was worth it.',
  'The hardest part was getting up before six every day.',
  'My neighbour helped a lot, she knows everything about it.',
  'We are planning to do it again next spring.',
  'I kept notes so I would not forget what worked.',
  'It cost less than I feared, around two hundred euros.',
];

/** Invented chats: deterministic, two people per conversation, 14-30 turns per session. */
export function inventConversations(count: number, sessionsEach = 20): Conversation[] {
  let seed = 0x2545f491;
  const rand = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;
  return Array.from({ length: count }, (_, c) => {
    const speakers: [string, string] = [PEOPLE[c % PEOPLE.length]!, PEOPLE[(c + 3) % PEOPLE.length]!];
    const sessions = Array.from({ length: sessionsEach }, (_, s) => {
      const turns: Turn[] = [];
      const n = 14 + rand(17);
      for (let i = 0; i < n; i++) {
        const speaker = speakers[i % 2]!;
        const text =
          i % 3 === 0
            ? `${pick(OPENERS)} ${pick(DOINGS)}.`
            : i % 3 === 1
              ? pick(REPLIES)
              : `${pick(DETAILS)} ${pick(OPENERS)} ${pick(DOINGS)}.`;
        turns.push({ speaker, text });
      }
      return { start: Date.UTC(2024, 0, 1 + s * 3 + c, 9 + (c % 10)), turns };
    });
    return { speakers, sessions };
  });
}

/**
 * An endless stream of add requests for one client: the conversation's sessions in order,
 * `batch` turns per request, speakers suffixed with `owner` so that every client writes its
 * own owners and sessions; when the conversation ends it starts over a year later, in a new
 * engram session. One engram session holds the whole conversation, as an agent's thread
 * with a user would: each LoCoMo session starts on a new day, which is an extraction boundary.
 */
export function* addRequests(
  conv: Conversation,
  owner: string,
  batch: number,
): Generator<{ session_id: string; messages: BenchMessage[] }> {
  for (let round = 0; ; round++) {
    for (const session of conv.sessions) {
      const start = session.start + round * 366 * 86_400_000;
      for (let i = 0; i < session.turns.length; i += batch)
        yield {
          session_id: `${owner}-r${round}`,
          messages: session.turns.slice(i, i + batch).map((t, j) => ({
            ...senderOf(conv, t, `-${owner}`),
            content: t.text,
            timestamp: start + (i + j) * 30_000,
          })),
        };
    }
  }
}

/**
 * Every 37th of LoCoMo's questions (54 of 1,986), in order: the questions the tools that probe
 * a kept store ask (bench:scale:profile, :pruning, :lull), so their figures are of one set.
 */
export function probeQuestions(path: string): string[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { qa: { question: string }[] }[])
    .flatMap((c) => c.qa.map((q) => q.question))
    .filter((_, i) => i % 37 === 0);
}
