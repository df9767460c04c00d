import type { SegmentMessage } from '../../core/ports.js';
import { tokenCount } from '../text.js';

/**
 * Extraction boundaries: a session's buffered messages are cut into segments when the
 * calendar day (UTC) changes, the gap between two messages exceeds gapMs, the segment
 * reaches maxMessages or maxTokens, a topic shift is detected, or on flush. Whatever
 * follows the last cut stays buffered (`accumulated`).
 */
export interface BoundaryRules {
  gapMs: number;
  maxMessages: number;
  maxTokens: number;
  /** Topic shifts are only considered once a segment has this many messages. */
  minMessagesBeforeShift: number;
}

export type ShiftDetector = (buffer: readonly SegmentMessage[], next: SegmentMessage) => Promise<boolean>;

const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

/**
 * @param firstNew index of the first message not seen by an earlier run: topic shifts are
 *   only asked about new messages, so an LLM is never asked twice about the same turn.
 */
export async function cutSegments(
  buffer: readonly SegmentMessage[],
  rules: BoundaryRules,
  isShift: ShiftDetector,
  opts: { flush: boolean; firstNew: number },
): Promise<{ segments: SegmentMessage[][]; tail: SegmentMessage[] }> {
  const segments: SegmentMessage[][] = [];
  let current: SegmentMessage[] = [];
  let tokens = 0;
  for (let i = 0; i < buffer.length; i++) {
    const m = buffer[i]!;
    const last = current.at(-1);
    if (last) {
      const t = tokenCount(m.content);
      let cut =
        utcDay(m.timestamp) !== utcDay(last.timestamp) ||
        m.timestamp - last.timestamp > rules.gapMs ||
        current.length >= rules.maxMessages ||
        tokens + t > rules.maxTokens;
      // Keep a tool trajectory together: never cut right before a tool result.
      if (cut && m.role === 'tool' && current.length < rules.maxMessages * 2) cut = false;
      if (
        !cut &&
        i >= opts.firstNew &&
        m.role === 'user' &&
        current.length >= rules.minMessagesBeforeShift &&
        (await isShift(current, m))
      )
        cut = true;
      if (cut) {
        segments.push(current);
        current = [];
        tokens = 0;
      }
    }
    current.push(m);
    tokens += tokenCount(m.content);
  }
  if (opts.flush && current.length) {
    segments.push(current);
    current = [];
  }
  return { segments, tail: current };
}
