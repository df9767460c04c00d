import { z } from 'zod';
import type { Logger } from '../../core/log.js';
import type { Llm } from '../../core/ports.js';

/**
 * Agentic search: retrieval in rounds. After each round an LLM reads the question and the
 * best memories so far, judges whether they suffice, and otherwise writes follow-up
 * queries for what is missing; the next round searches the question plus every follow-up
 * (follow-ups weigh FOLLOW_UP_WEIGHT). At most `maxRounds` retrievals.
 *
 * Without an LLM (or when it fails) the search degrades: round two adds one query built
 * by offline pseudo-relevance feedback (expand.ts), and metadata says `degraded: true`.
 */
export const FOLLOW_UP_WEIGHT = 0.9;
/**
 * Weight of the offline expansion (the question and a few words of its first hits) against
 * the question: the added words find the second hop but also pull in what merely shares them,
 * so the expansion weighs less than an LLM's follow-up query (docs/search.md, "Agentic").
 */
export const EXPANSION_WEIGHT = 0.8;
export const DEFAULT_MAX_ROUNDS = 3;

/** A hit of a round: its text and its score. */
export interface RoundHit {
  text: string;
  score: number;
}

export interface AgenticRound {
  /** Retrieves for these queries; returns the best hits, best first. */
  retrieve(queries: string[], weights: number[]): Promise<RoundHit[]>;
  /** Offline expansion of the question from the texts of the first round's hits. */
  expand(hits: string[]): Promise<string | undefined>;
}

export interface AgenticResult {
  queries: string[];
  weights: number[];
  rounds: number;
  degraded: boolean;
  /** Why the search degraded, when it did. */
  reason?: string;
}

const Judgement = z.object({
  sufficient: z.boolean(),
  queries: z.array(z.string().min(1).max(300)).max(3).default([]),
});

const SYSTEM = `You help a memory search engine answer a question from a user's long-term memories.
Given the question and the memories retrieved so far, decide whether they are sufficient to answer it.
If not, write up to 3 short, specific search queries (names, events, places, dates) for the missing information.
Do not repeat queries already tried. Reply with JSON: {"sufficient": boolean, "queries": string[]}.`;

export async function runAgentic(
  question: string,
  round: AgenticRound,
  llm: Llm | undefined,
  log: Logger,
  maxRounds = DEFAULT_MAX_ROUNDS,
): Promise<AgenticResult> {
  const queries = [question];
  const weights = [1];
  let hits = await round.retrieve(queries, weights);
  if (!llm) return offline(round, hits, queries, weights, 'no LLM configured');
  let rounds = 1;
  try {
    while (rounds < maxRounds) {
      const user = `Question: ${question}\n\nQueries tried: ${queries.map((q) => JSON.stringify(q)).join(', ')}\n\nMemories:\n${
        hits.length
          ? hits
              .slice(0, 15)
              .map((h, i) => `${i + 1}. ${h.text}`)
              .join('\n')
          : '(none)'
      }`;
      const j = await llm.json({
        name: 'search_sufficiency',
        system: SYSTEM,
        user,
        schema: Judgement,
        temperature: 0,
      });
      const fresh = j.queries.map((q) => q.trim()).filter((q) => q && !queries.includes(q));
      if (j.sufficient || !fresh.length) break;
      queries.push(...fresh);
      weights.push(...fresh.map(() => FOLLOW_UP_WEIGHT));
      hits = await round.retrieve(queries, weights);
      rounds++;
    }
    return { queries, weights, rounds, degraded: false };
  } catch (err) {
    log.warn('agentic search: LLM failed, falling back to offline expansion', { error: err });
    return offline(round, hits, [question], [1], 'LLM failed');
  }
}

/**
 * Round two of a degraded search: the question plus its expansion from the hits that matched
 * it (score above 0). A hit that scored 0 matched nothing of the question (a question of an
 * emoji or punctuation still gets the nearest memories): expanding from it would search for
 * those memories' own words. No such hit, no expansion.
 */
async function offline(
  round: AgenticRound,
  hits: RoundHit[],
  queries: string[],
  weights: number[],
  reason: string,
): Promise<AgenticResult> {
  const matched = hits.filter((h) => h.score > 0).map((h) => h.text);
  const expanded = matched.length ? await round.expand(matched) : undefined;
  if (!expanded) return { queries, weights, rounds: 1, degraded: true, reason };
  return {
    queries: [...queries, expanded],
    weights: [...weights, EXPANSION_WEIGHT],
    rounds: 2,
    degraded: true,
    reason,
  };
}
