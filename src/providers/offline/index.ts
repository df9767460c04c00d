/**
 * The offline extractor: memory from conversations with no network and no model.
 * Deterministic heuristics over the text — sentence scoring, third-person rewriting,
 * relative-date resolution, first-person patterns — produce the episode, atomic facts,
 * profiles of the humans and cases of the tool-using agents.
 */
import type {
  CaseForSkill,
  ExtractedSkill,
  Extraction,
  Extractor,
  SegmentMessage,
} from '../../core/ports.js';
import { analyze, participantNames } from './analyze.js';
import { extractCases } from './cases.js';
import { buildEpisode } from './episode.js';
import { extractFacts } from './facts.js';
import { extractProfiles } from './profile.js';
import { distillSkill } from './skill.js';
import { DEFAULT_TOPIC_OPTIONS, isTopicShift, type TopicShiftOptions } from './topic.js';

export interface OfflineExtractorOptions {
  /** Most facts taken from one message (default 3; an assistant's gives at most 2); a person's long message also gives its further sentences about her, up to this many for each 4 of its sentences. */
  maxFactsPerMessage?: number;
  /** Tuning of the lexical topic-shift test. */
  topic?: Partial<TopicShiftOptions>;
}

export class OfflineExtractor implements Extractor {
  readonly kind = 'offline' as const;
  private readonly maxFacts: number;
  private readonly topic: TopicShiftOptions;

  constructor(options: OfflineExtractorOptions = {}) {
    this.maxFacts = Math.max(0, Math.floor(options.maxFactsPerMessage ?? 3));
    this.topic = { ...DEFAULT_TOPIC_OPTIONS, ...options.topic };
  }

  /** Synchronous core of `extract`, for callers and tests that want no promise. */
  extractSync(segment: readonly SegmentMessage[], ctx: { humans: string[]; agents: string[] }): Extraction {
    const messages = [...segment].sort((a, b) => a.timestamp - b.timestamp);
    if (messages.length === 0) {
      return {
        episode: {
          subject: 'Empty segment',
          summary: 'No messages.',
          episode: 'No messages were exchanged.',
          facts: [],
        },
        profiles: [],
        cases: [],
      };
    }
    const views = analyze(messages, participantNames(messages));
    return {
      episode: { ...buildEpisode(views), facts: extractFacts(views, this.maxFacts) },
      profiles: extractProfiles(views, ctx.humans),
      cases: extractCases(views, ctx.agents),
    };
  }

  async extract(
    segment: readonly SegmentMessage[],
    ctx: { humans: string[]; agents: string[] },
  ): Promise<Extraction> {
    return this.extractSync(segment, ctx);
  }

  async isTopicShift(buffer: readonly SegmentMessage[], next: SegmentMessage): Promise<boolean> {
    return isTopicShift(buffer, next, this.topic);
  }

  async distillSkill(cases: readonly CaseForSkill[]): Promise<ExtractedSkill> {
    return distillSkill(cases);
  }
}

export { formatDate, resolveRelativeDates } from '../../core/dates.js';
export { PROFILE_CATEGORIES, type ProfileCategory } from './profile.js';
export { toThirdPerson } from './rewrite.js';
export { distillSkill } from './skill.js';
export { isTopicShift } from './topic.js';
