import { z } from 'zod';
import { type Logger, silentLogger } from '../../core/log.js';
import type {
  CaseForSkill,
  ExtractedCase,
  ExtractedFact,
  ExtractedSkill,
  Extraction,
  Extractor,
  Llm,
  ProfileObservation,
  SegmentMessage,
} from '../../core/ports.js';
import { contentStems } from '../offline/text.js';
import {
  clip,
  EXTRACT_SYSTEM,
  extractUser,
  formatDate,
  formatTimestamp,
  SKILL_SYSTEM,
  skillUser,
  speaker,
  TOPIC_SYSTEM,
  topicUser,
} from './prompts.js';

/**
 * The `Extractor` port backed by an `Llm`. The model sees a numbered transcript and cites
 * line numbers; this class maps them back to message ids, keeps only what the context
 * allows (profiles for humans, cases for agents that used tools), clamps sizes and never
 * returns empty text. LlmError from `extract` and `distillSkill` propagates (the caller
 * decides whether to retry); topic detection never throws.
 */

/** Line references as the model writes them: numbers, or strings like "3" / "[3]". */
const lineRefs = z.array(z.union([z.number(), z.string()])).default([]);

export const extractionSchema = z.object({
  subject: z.string(),
  summary: z.string(),
  episode: z.string(),
  facts: z.array(z.union([z.object({ content: z.string(), sources: lineRefs }), z.string()])).default([]),
  profiles: z
    .array(
      z.object({
        user_id: z.string(),
        explicit_info: z
          .array(
            z.object({ category: z.string().default('other'), description: z.string(), sources: lineRefs }),
          )
          .default([]),
        implicit_traits: z
          .array(z.object({ trait: z.string(), description: z.string().default(''), sources: lineRefs }))
          .default([]),
      }),
    )
    .default([]),
  cases: z
    .array(
      z.object({
        agent_id: z.string(),
        task_intent: z.string(),
        approach: z.string(),
        quality_score: z.number().default(0.5),
        key_insight: z.string().nullable().default(null),
      }),
    )
    .default([]),
});
export type ExtractionReply = z.output<typeof extractionSchema>;

export const topicSchema = z.object({ shift: z.boolean() });

export const skillSchema = z.object({
  name: z.string(),
  description: z.string(),
  content: z.string(),
  confidence: z.number().default(0.5),
});

/** Size limits applied to what the model returns. */
export const LIMITS = {
  subject: 200,
  summary: 1000,
  episode: 8000,
  fact: 1000,
  description: 1000,
  trait: 200,
  category: 64,
  taskIntent: 1000,
  approach: 4000,
  insight: 1000,
  skillName: 200,
  skillContent: 8000,
  items: 100,
} as const;

/** Messages of the buffer shown to the topic-shift question. */
const TOPIC_WINDOW = 8;

export interface LlmExtractorOptions {
  logger?: Logger;
}

export class LlmExtractor implements Extractor {
  readonly kind = 'llm' as const;
  private readonly log: Logger;

  constructor(
    private readonly llm: Llm,
    opts: LlmExtractorOptions = {},
  ) {
    this.log = opts.logger ?? silentLogger;
  }

  async extract(
    segment: readonly SegmentMessage[],
    ctx: { humans: string[]; agents: string[] },
  ): Promise<Extraction> {
    if (segment.length === 0) throw new Error('cannot extract memory from an empty segment');
    const reply = await this.llm.json({
      name: 'extract_memory',
      system: EXTRACT_SYSTEM,
      user: extractUser(segment, ctx),
      schema: extractionSchema,
    });
    return mapExtraction(reply, segment, ctx);
  }

  async isTopicShift(buffer: readonly SegmentMessage[], next: SegmentMessage): Promise<boolean> {
    if (buffer.length === 0) return false;
    try {
      const reply = await this.llm.json({
        name: 'topic_shift',
        system: TOPIC_SYSTEM,
        user: topicUser(buffer.slice(-TOPIC_WINDOW), next),
        schema: topicSchema,
      });
      return reply.shift;
    } catch (err) {
      this.log.warn('topic-shift detection failed; assuming no shift', { error: err });
      return false;
    }
  }

  async distillSkill(cases: readonly CaseForSkill[]): Promise<ExtractedSkill> {
    if (cases.length === 0) throw new Error('cannot distill a skill from zero cases');
    const reply = await this.llm.json({
      name: 'distill_skill',
      system: SKILL_SYSTEM,
      user: skillUser(cases),
      schema: skillSchema,
    });
    const first = cases[0]!;
    const name = clip1(reply.name, LIMITS.skillName) || clip1(first.task_intent, LIMITS.skillName);
    const content =
      clip1(reply.content, LIMITS.skillContent) ||
      clip1(cases.map((c, i) => `${i + 1}. ${c.approach.trim()}`).join('\n'), LIMITS.skillContent);
    return {
      name: name || 'Unnamed skill',
      description:
        clip1(reply.description, LIMITS.description) || clip1(first.task_intent, LIMITS.description),
      content: content || name || 'Unnamed skill',
      confidence: unit(reply.confidence),
    };
  }
}

/** Maps a validated model reply onto the port's Extraction, against the segment it describes. */
export function mapExtraction(
  reply: ExtractionReply,
  segment: readonly SegmentMessage[],
  ctx: { humans: readonly string[]; agents: readonly string[] },
): Extraction {
  const ids = (refs: readonly (number | string)[], fallback: string[]) => {
    const out: string[] = [];
    for (const ref of refs) {
      const n = typeof ref === 'number' ? ref : Number(String(ref).replace(/[[\]\s#]/g, ''));
      if (!Number.isInteger(n) || n < 1 || n > segment.length) continue;
      const id = segment[n - 1]!.id;
      if (!out.includes(id)) out.push(id);
    }
    return out.length ? out : fallback;
  };

  const facts: ExtractedFact[] = [];
  const stems = segment.map((m) => new Set(contentStems(m.content)));
  for (const f of reply.facts.slice(0, LIMITS.items)) {
    const content = clip1(typeof f === 'string' ? f : f.content, LIMITS.fact);
    if (!content) continue;
    const cited = typeof f === 'string' ? [] : ids(f.sources, []);
    facts.push({ content, message_ids: cited.length ? cited : closestTurns(content, segment, stems) });
  }

  // Profiles: humans only, model's names resolved to ids, duplicates merged.
  const humanId = resolver(segment, ctx.humans);
  const profiles = new Map<string, ProfileObservation>();
  for (const p of reply.profiles) {
    const userId = humanId(p.user_id);
    if (!userId) continue;
    const own = segment.filter((m) => m.sender_id === userId).map((m) => m.id);
    const profile = profiles.get(userId) ?? { user_id: userId, explicit_info: [], implicit_traits: [] };
    for (const e of p.explicit_info.slice(0, LIMITS.items)) {
      const description = clip1(e.description, LIMITS.description);
      if (!description) continue;
      const category = clip1(e.category.toLowerCase(), LIMITS.category) || 'other';
      profile.explicit_info.push({ category, description, message_ids: ids(e.sources, own) });
    }
    for (const t of p.implicit_traits.slice(0, LIMITS.items)) {
      const trait = clip1(t.trait, LIMITS.trait);
      if (!trait) continue;
      const description = clip1(t.description, LIMITS.description) || trait;
      profile.implicit_traits.push({ trait, description, message_ids: ids(t.sources, own) });
    }
    if (profile.explicit_info.length || profile.implicit_traits.length) profiles.set(userId, profile);
  }

  // Cases: only agents in ctx that actually issued tool calls in this segment.
  const toolUsers = ctx.agents.filter((a) =>
    segment.some((m) => m.sender_id === a && m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0),
  );
  const agentId = resolver(segment, toolUsers);
  const cases: ExtractedCase[] = [];
  for (const c of reply.cases.slice(0, LIMITS.items)) {
    const id = agentId(c.agent_id);
    const task_intent = clip1(c.task_intent, LIMITS.taskIntent);
    if (!id || !task_intent) continue;
    cases.push({
      agent_id: id,
      task_intent,
      approach: clip1(c.approach, LIMITS.approach) || task_intent,
      quality_score: unit(c.quality_score),
      key_insight: clip1(c.key_insight ?? '', LIMITS.insight) || null,
    });
  }

  const narrative = clip1(reply.episode, LIMITS.episode) || plainNarrative(segment);
  return {
    episode: {
      subject: clip1(reply.subject, LIMITS.subject) || fallbackSubject(segment),
      summary: clip1(reply.summary, LIMITS.summary) || clip1(narrative, LIMITS.summary),
      episode: narrative,
      facts,
    },
    profiles: [...profiles.values()],
    cases,
  };
}

/**
 * Resolves what the model wrote as a participant id to an allowed sender id: the id
 * itself, or (models often do this) the participant's display name.
 */
function resolver(segment: readonly SegmentMessage[], allowed: readonly string[]) {
  const byName = new Map<string, string>();
  for (const m of segment) {
    if (allowed.includes(m.sender_id) && m.sender_name?.trim()) {
      byName.set(m.sender_name.trim().toLowerCase(), m.sender_id);
    }
  }
  return (raw: string): string | undefined => {
    const v = raw.trim();
    if (allowed.includes(v)) return v;
    return byName.get(v.toLowerCase());
  };
}

/** A plain, model-free narrative of the segment, used when the model returns none. */
export function plainNarrative(segment: readonly SegmentMessage[]): string {
  const lines = segment.map((m) => {
    const when = `${formatDate(m.timestamp)} at ${formatTimestamp(m.timestamp).slice(11)} UTC`;
    const text = m.content.replace(/\s+/g, ' ').trim();
    if (m.role === 'tool') {
      return `On ${when}, a tool returned${text ? `: ${clip(text, 300)}` : ' nothing'}.`;
    }
    const parts: string[] = [];
    if (text) parts.push(`said: "${clip(text, 1000)}"`);
    const calls = (m.tool_calls ?? []).map((c) => c.function.name);
    if (calls.length) parts.push(`called the tool${calls.length > 1 ? 's' : ''} ${calls.join(', ')}`);
    return `On ${when}, ${speaker(m)} ${parts.join(' and ') || 'sent an empty message'}.`;
  });
  return clip1(lines.join('\n'), LIMITS.episode) || 'An empty conversation.';
}

function fallbackSubject(segment: readonly SegmentMessage[]): string {
  const first = segment
    .find((m) => m.content.trim())
    ?.content.replace(/\s+/g, ' ')
    .trim();
  if (first) return clip1(first, 80);
  const names = [...new Set(segment.map(speaker))];
  return clip1(`Conversation between ${names.join(', ')}`, LIMITS.subject);
}

/** Trimmed and cut to max characters (no marker: these are stored, not shown to a model). */
function clip1(s: string, max: number): string {
  const t = s.trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

/** Clamped to [0, 1]; 0.5 when not a number. */
function unit(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.5;
}

/**
 * The turns a fact that cites none rests on: those sharing the most of its content words, or
 * the whole segment when none shares any. A fact resting on every turn of its segment would
 * stand for all of them (recall skips a turn a fact already shows), so a model's plain string
 * fact would hide every other turn of the conversation.
 */
function closestTurns(
  content: string,
  segment: readonly SegmentMessage[],
  stems: readonly Set<string>[],
): string[] {
  const words = new Set(contentStems(content));
  const shared = stems.map((s) => [...words].filter((w) => s.has(w)).length);
  const best = Math.max(0, ...shared);
  if (best === 0) return segment.map((m) => m.id);
  return segment.filter((_, i) => shared[i] === best).map((m) => m.id);
}
