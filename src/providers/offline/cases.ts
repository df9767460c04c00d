/**
 * Agent cases: for each agent that called tools in a segment, the task it worked on (the
 * user request before its first call, condensed), the approach (calls with key
 * arguments, what came back, how the answer used it), a quality score from tool errors
 * and the user's reaction, and the key insight (what resolved it).
 */
import type { ExtractedCase, SegmentMessage, ToolCall } from '../../core/ports.js';
import type { MessageView } from './analyze.js';
import { describeArgs, describeResult } from './facts.js';
import { capitalize, terminate, truncate } from './text.js';

const ERROR =
  /\b(?:error|exception|failed|failure|not found|invalid|denied|unauthori[sz]ed|forbidden|timeout|timed out|unavailable|cannot|can't|unable|traceback|refused|bad request|no results?)\b|\b(?:status|code|http)\W{0,3}[45]\d\d\b|"error"\s*:/i;
const DISSATISFIED =
  /\b(?:that's (?:not|wrong)|not what i (?:asked|wanted|meant)|(?:doesn't|didn't|does not|did not) work|still (?:broken|wrong|failing|not working)|wrong|useless|incorrect|not right|try again|you misunderstood|frustrat\w*|annoying|terrible|disappointed|nope)\b|^no\b/i;
const SATISFIED =
  /\b(?:thanks|thank you|thx|perfect|great|awesome|works|worked|that's it|exactly|excellent|brilliant|appreciate|helpful|solved|fixed|nice|good job|well done|looks good)\b/i;

export const MAX_INTENT = 300;
export const MAX_APPROACH = 2000;

/** Tool result text is an error or an empty answer. */
export function isFailure(content: string): boolean {
  return content.trim() === '' || ERROR.test(content.slice(0, 400));
}

/** The request of a user message, stripped of greetings and politeness. */
export function condenseRequest(view: MessageView): string {
  const sentences = view.sentences.filter((s) => !s.filler);
  const asks = sentences.filter(
    (s) =>
      s.question || /\b(?:please|can you|could you|would you|i need|i want|help me|i'd like)\b/i.test(s.core),
  );
  const picked = (asks.length ? asks : sentences).slice(0, 2).map((s) => s.core);
  const text = (picked.length ? picked.join(' ') : view.msg.content)
    .replace(/^(?:(?:hey|hi|hello)\b[^,.!?]*[,.!?]\s*)/i, '')
    .replace(/\b(?:can|could|would|will) you (?:please )?/gi, '')
    .replace(/\b(?:please|kindly)\s+/gi, '')
    .replace(/\b(?:i need you to|i want you to|i'd like you to|help me)\s+/gi, '')
    .replace(/\?+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return truncate(capitalize(text), MAX_INTENT);
}

interface Step {
  call: ToolCall;
  result: SegmentMessage | null;
  failed: boolean;
}

interface Run {
  agentId: string;
  request: MessageView | null;
  steps: Step[];
  answer: MessageView | null;
  reaction: MessageView | null;
}

/** Groups each agent's tool calls by the user request they serve. */
function runs(views: readonly MessageView[], agentIds: ReadonlySet<string>): Run[] {
  const out: Run[] = [];
  let lastUser: MessageView | null = null;
  const open = new Map<string, Run>();
  for (const v of views) {
    if (v.msg.role === 'user') {
      for (const run of open.values()) if (!run.reaction && run.steps.length > 0) run.reaction = v;
      open.clear();
      lastUser = v;
      continue;
    }
    if (v.msg.role !== 'assistant' || !agentIds.has(v.msg.sender_id)) continue;
    let run = open.get(v.msg.sender_id);
    if (v.msg.tool_calls?.length) {
      if (!run) {
        run = { agentId: v.msg.sender_id, request: lastUser, steps: [], answer: null, reaction: null };
        open.set(v.msg.sender_id, run);
        out.push(run);
      }
      for (const call of v.msg.tool_calls) {
        const result =
          views.find((r) => r.msg.role === 'tool' && r.msg.tool_call_id === call.id)?.msg ?? null;
        run.steps.push({ call, result, failed: result ? isFailure(result.content) : false });
      }
    } else if (run && v.msg.content.trim()) {
      run.answer = v;
    }
  }
  return out;
}

function approach(run: Run): string {
  const lines = run.steps.map((s, i) => {
    const args = describeArgs(s.call.function.arguments);
    const head = `${i + 1}. Called ${s.call.function.name}(${args})`;
    if (!s.result) return `${head}; no result recorded.`;
    const res = describeResult(s.result.content, 140);
    return s.failed ? `${head} -> failed: ${res}` : `${head} -> ${res}`;
  });
  if (run.answer) {
    const first = run.answer.sentences.find((s) => !s.filler)?.core ?? run.answer.msg.content;
    lines.push(
      `${run.steps.length + 1}. Answered using the results: ${truncate(first.replace(/\s+/g, ' '), 200)}`,
    );
  }
  return truncate(lines.map((l) => terminate(l)).join('\n'), MAX_APPROACH);
}

function quality(run: Run): number {
  let q = 0.5;
  const failures = run.steps.filter((s) => s.failed).length;
  q -= Math.min(0.3, failures * 0.1);
  if (failures > 0 && failures === run.steps.length) q -= 0.1;
  if (run.steps.every((s) => !s.result)) q -= 0.05;
  if (run.answer) q += 0.05;
  const reaction = run.reaction?.msg.content ?? '';
  if (DISSATISFIED.test(reaction)) q -= 0.3;
  else if (SATISFIED.test(reaction)) q += 0.3;
  return Math.round(Math.min(1, Math.max(0, q)) * 100) / 100;
}

function insight(run: Run): string | null {
  const firstFail = run.steps.findIndex((s) => s.failed);
  const lastOk = [...run.steps].reverse().find((s) => s.result && !s.failed);
  if (firstFail >= 0 && lastOk && run.steps.indexOf(lastOk) > firstFail) {
    const failed = run.steps[firstFail] as Step;
    const name = failed.call.function.name;
    if (lastOk.call.function.name === name) {
      return `${name} failed at first; retrying it with different arguments (${describeArgs(lastOk.call.function.arguments, 3)}) worked.`;
    }
    return `When ${name} failed, ${lastOk.call.function.name} resolved the task.`;
  }
  if (lastOk) return `${lastOk.call.function.name} provided the information the answer needed.`;
  if (firstFail >= 0)
    return `${run.steps[firstFail]?.call.function.name} failed and nothing recovered the task.`;
  return null;
}

/** Cases for the agents among `agents` that called tools, one per served user request. */
export function extractCases(views: readonly MessageView[], agents: readonly string[]): ExtractedCase[] {
  return runs(views, new Set(agents))
    .slice(0, 10)
    .map((run) => ({
      agent_id: run.agentId,
      task_intent: run.request
        ? condenseRequest(run.request)
        : truncate(`Task handled with ${run.steps.map((s) => s.call.function.name).join(', ')}`, MAX_INTENT),
      approach: approach(run),
      quality_score: quality(run),
      key_insight: insight(run),
    }));
}
