/**
 * Lexical topic-shift detection: compares the content-word stems of `next` with those of
 * the last few buffered messages. Conservative by design — a wrong cut splits one story
 * over two episodes, a missed cut only makes an episode longer — so it answers true only
 * on a clear shift: an explicit cue ("by the way", "anyway", "switching topics") with
 * little overlap, or a long message sharing nothing with a well-established context.
 */
import type { SegmentMessage } from '../../core/ports.js';
import { contentStems } from './text.js';

/** An explicit change of subject opening a message or sentence ("By the way, ...", "Anyway, ..."). */
export const TOPIC_CUE =
  /^(?:\W*(?:hey|hi|oh|so|ok|okay|well|also|and)\W+)?(?:by the way|btw|anyway|anyways|changing the subject|change of subject|on another note|on a different note|on an unrelated note|unrelated(?: question)?|different (?:question|topic)|new (?:question|topic)|switching gears|speaking of something else|random question|moving on|one more thing|another thing|quick question|separately)\b/i;

/** Openers of a reply to the previous message. */
const REACTION =
  /^\W*(?:thanks|thank you|thx|wow|whoa|woah|yeah|yes|yep|yup|no|nope|that's|that is|that|this|it's|sounds|congrats|congratulations|cool|great|nice|awesome|amazing|haha|lol|oh|aw+|i agree|totally|absolutely|definitely|sure|right|exactly|true|glad|sorry|same|me too|you|your|ha|hmm|ok|okay|good|love|omg|so|and|but|also|agreed|indeed)\b/i;

export interface TopicShiftOptions {
  /** Buffered messages (most recent first) that form the context. */
  window: number;
  /** `next` needs at least this many distinct content stems to count as a shift. */
  minNextWords: number;
  /** The context needs at least this many distinct content stems. */
  minContextWords: number;
}

export const DEFAULT_TOPIC_OPTIONS: TopicShiftOptions = { window: 6, minNextWords: 6, minContextWords: 20 };

/** Share of `next`'s stems found in the context (0..1). */
function overlap(context: ReadonlySet<string>, next: ReadonlySet<string>): number {
  if (next.size === 0) return 1;
  let hit = 0;
  for (const s of next) if (context.has(s)) hit++;
  return hit / next.size;
}

/** True when `next` clearly starts a new topic relative to `buffer`. Deterministic. */
export function isTopicShift(
  buffer: readonly SegmentMessage[],
  next: SegmentMessage,
  opts: TopicShiftOptions = DEFAULT_TOPIC_OPTIONS,
): boolean {
  if (next.role === 'tool' || next.tool_calls?.length || next.tool_call_id) return false;
  const recent = buffer.filter((m) => m.role !== 'tool' && m.content.trim()).slice(-opts.window);
  if (recent.length === 0) return false;
  // A reply to a recent question from someone else is never a new topic.
  const others = recent.filter((m) => m.sender_id !== next.sender_id).slice(-2);
  if (others.some((m) => m.content.includes('?'))) return false;
  const text = next.content.trim();
  const nextStems = new Set(contentStems(text));
  const context = new Set(recent.flatMap((m) => contentStems(m.content)));
  const share = overlap(context, nextStems);
  // An explicit cue with a couple of new topic words and little overlap.
  if (TOPIC_CUE.test(text)) return nextStems.size >= 2 && share < 0.34;
  // A reaction to what was just said ("Wow, that's great! ...") continues the exchange.
  if (REACTION.test(text)) return false;
  // Without a cue: a substantial message sharing (almost) nothing with a substantial context.
  if (nextStems.size < opts.minNextWords || context.size < opts.minContextWords) return false;
  return share === 0 || (nextStems.size >= 10 && share <= 0.1);
}
