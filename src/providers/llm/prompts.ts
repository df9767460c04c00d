import type { CaseForSkill, SegmentMessage } from '../../core/ports.js';
import { MONTHS, WEEKDAYS } from '../../core/time.js';

/**
 * Prompt texts for the LLM extractor, and the rendering of messages into the numbered
 * transcript the prompts refer to. Line numbers start at 1; timestamps are UTC.
 */

const MAX_CONTENT_CHARS = 4000;
const MAX_TOOL_RESULT_CHARS = 1500;
const MAX_TOOL_ARGS_CHARS = 500;

export const EXTRACT_SYSTEM = `You turn one segment of a conversation into long-term memory.

The segment is a transcript of numbered lines: "[n] YYYY-MM-DD HH:MM Name (role): text". Times are UTC. The role is "user" for a human, "assistant" for an AI agent and "tool" for a tool result. The Participants list gives each speaker's id.

Reply with one JSON object and nothing else, with these fields:
- "subject": what the segment is about, in a few words (at most 200 characters).
- "summary": one or two sentences summarising the segment.
- "episode": a third-person narrative of what was said and done, in chronological order. Name every person; never write "the user", "I" or "you". Replace every relative date or time ("yesterday", "last week", "tomorrow", "next Friday", "two years ago") with the absolute date computed from the timestamp of the line that says it, e.g. "yesterday" said on 2023-05-08 becomes "7 May 2023". Keep concrete details: names, places, numbers, titles, dates. Never invent anything.
- "facts": atomic, self-contained statements that are true according to the segment, each understandable on its own (full names, absolute dates), e.g. "Rosa ran her first half marathon in Lyon on 3 March 2024". "sources" lists the line numbers each fact rests on.
- "profiles": one entry per human participant (role user) the segment reveals something about; "user_id" is that participant's id from the Participants list. "explicit_info": things they state about themselves, each with a "category" (preference, occupation, location, relationship, plan, hobby, health, education, possession, event or other), a self-contained "description" and "sources". "implicit_traits": personality traits, values or habits their words suggest, each with a short "trait", a "description" that justifies it, and "sources". Leave out participants the segment reveals nothing about.
- "cases": one entry per AI agent (role assistant) that called tools in this segment, with "agent_id" from the Participants list: "task_intent" (what it was asked to achieve), "approach" (the steps and tools it used, in order, and the outcome), "quality_score" from 0 to 1 (how well the outcome served the request; 0.5 when unsure), "key_insight" (a lesson worth reusing next time, or null). Use an empty list when no agent called tools.

Shape:
{"subject": "...", "summary": "...", "episode": "...",
 "facts": [{"content": "...", "sources": [1, 2]}],
 "profiles": [{"user_id": "...", "explicit_info": [{"category": "...", "description": "...", "sources": [1]}], "implicit_traits": [{"trait": "...", "description": "...", "sources": [2]}]}],
 "cases": [{"agent_id": "...", "task_intent": "...", "approach": "...", "quality_score": 0.8, "key_insight": null}]}`;

export const TOPIC_SYSTEM = `You decide whether a new chat message starts a new topic compared with the conversation so far.
It is a shift only when the new message turns to a subject unrelated to the recent conversation. Follow-up questions, answers, acknowledgements, small talk within the same exchange, tool calls and tool results are not a shift.
Reply with one JSON object and nothing else: {"shift": true} or {"shift": false}.`;

export const SKILL_SYSTEM = `You consolidate several cases of one AI agent solving similar tasks into one reusable skill.
Each case has a task intent, the approach taken, a quality score from 0 (poor) to 1 (excellent) and possibly a key insight.
Follow the approaches of high-scoring cases; use low-scoring cases only as pitfalls to avoid.

Reply with one JSON object and nothing else:
{"name": "short title of the skill", "description": "one or two sentences: what it achieves and when to use it", "content": "the procedure as numbered Markdown steps, with pitfalls, ready to put in an agent's prompt", "confidence": 0.0}
"confidence" (0 to 1) says how consistently the cases support the procedure.`;

/** The user message for extraction: participants, dates, numbered transcript. */
export function extractUser(
  segment: readonly SegmentMessage[],
  ctx: { humans: readonly string[]; agents: readonly string[] },
): string {
  return [
    'Participants:',
    ...participants(segment, ctx),
    `Dates in this segment (UTC): ${segmentDates(segment)}.`,
    '',
    'Transcript:',
    renderLines(segment),
  ].join('\n');
}

/** The user message for topic-shift detection. */
export function topicUser(recent: readonly SegmentMessage[], next: SegmentMessage): string {
  return [
    'Conversation so far:',
    renderLines(recent),
    '',
    'New message:',
    renderLine(next, recent.length + 1),
    '',
    'Does the new message start a new topic?',
  ].join('\n');
}

/** The user message for skill distillation. */
export function skillUser(cases: readonly CaseForSkill[]): string {
  const blocks = cases.map((c, i) =>
    [
      `Case ${i + 1} (quality ${c.quality_score.toFixed(2)}):`,
      `  task intent: ${clip(c.task_intent, 1000)}`,
      `  approach: ${clip(c.approach, 3000)}`,
      `  key insight: ${c.key_insight ? clip(c.key_insight, 1000) : 'none'}`,
    ].join('\n'),
  );
  return blocks.join('\n\n');
}

/** `[1] ...` lines, numbered from 1. */
export function renderLines(messages: readonly SegmentMessage[]): string {
  return messages.map((m, i) => renderLine(m, i + 1)).join('\n');
}

/** `[n] 2024-03-14 09:05 Rosa (user): text`, with tool calls and results spelled out. */
export function renderLine(m: SegmentMessage, n: number): string {
  const head = `[${n}] ${formatTimestamp(m.timestamp)} ${speaker(m)} (${m.role}):`;
  const text = indent(m.content.trim());
  if (m.role === 'tool') {
    const ref = m.tool_call_id ? `tool result for ${m.tool_call_id}` : 'tool result';
    return `${head} ${ref}: ${clip(text, MAX_TOOL_RESULT_CHARS)}`;
  }
  const parts: string[] = [];
  if (text) parts.push(clip(text, MAX_CONTENT_CHARS));
  for (const call of m.tool_calls ?? []) {
    parts.push(
      `calls tool ${call.function.name}(${clip(oneLine(call.function.arguments), MAX_TOOL_ARGS_CHARS)})`,
    );
  }
  return `${head} ${parts.join(' ; ') || '(empty)'}`;
}

/** `2023-05-08 13:56` in UTC. */
export function formatTimestamp(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return 'unknown-time';
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

/** `8 May 2023` in UTC. */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

export function speaker(m: SegmentMessage): string {
  return m.sender_name?.trim() || m.sender_id;
}

export function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… [${s.length - max} more chars]` : s;
}

function participants(
  segment: readonly SegmentMessage[],
  ctx: { humans: readonly string[]; agents: readonly string[] },
): string[] {
  const seen = new Map<string, SegmentMessage>();
  for (const m of segment) if (m.role !== 'tool' && !seen.has(m.sender_id)) seen.set(m.sender_id, m);
  return [...seen.values()].map((m) => {
    const kind = ctx.humans.includes(m.sender_id)
      ? 'human (user)'
      : ctx.agents.includes(m.sender_id)
        ? 'AI agent (assistant)'
        : m.role === 'user'
          ? 'human (user)'
          : 'AI agent (assistant)';
    return `- ${speaker(m)}: id ${JSON.stringify(m.sender_id)}, ${kind}`;
  });
}

function segmentDates(segment: readonly SegmentMessage[]): string {
  const days = new Set<string>();
  for (const m of segment) {
    const d = new Date(m.timestamp);
    if (!Number.isNaN(d.getTime())) days.add(`${WEEKDAYS[d.getUTCDay()]} ${formatDate(m.timestamp)}`);
  }
  return [...days].join(', ') || 'unknown';
}

/** Continuation lines indented so every `[n]` starts a line of its own. */
function indent(s: string): string {
  return s.replace(/\r?\n/g, '\n    ');
}

function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' / ').trim();
}
