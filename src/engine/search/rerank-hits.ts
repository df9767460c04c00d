import type { Logger } from '../../core/log.js';
import type { Reranker } from '../../core/ports.js';
import type { SearchCase, SearchSkill } from './agent.js';
import type { SearchEpisode } from './episodes.js';
import { MISSING_SCORE } from './rerank.js';
import { round } from './score.js';

/**
 * Optional rerank (`enable_llm_rerank` with a Reranker configured): the fused candidates
 * (up to max(20, 2·top_k) per kind) are sent to the reranker and reordered; each hit's
 * score becomes the reranker's relevance score. If the reranker fails the fused order and
 * scores stand, and metadata reports `reranked: false`.
 */
export interface RerankableHits {
  episodes: SearchEpisode[];
  cases: SearchCase[];
  skills: SearchSkill[];
}

const episodeDoc = (e: SearchEpisode) =>
  [e.subject, e.summary, ...e.atomic_facts.slice(0, 5).map((f) => f.content)].join('\n');
const caseDoc = (c: SearchCase) => [c.task_intent, c.approach, c.key_insight ?? ''].join('\n').trim();
const skillDoc = (k: SearchSkill) => [k.name, k.description, k.content].join('\n');

export async function rerankHits(
  reranker: Reranker,
  query: string,
  hits: RerankableHits,
  log: Logger,
): Promise<{ ok: boolean; hits: RerankableHits }> {
  try {
    return {
      ok: true,
      hits: {
        episodes: await reorder(reranker, query, hits.episodes, episodeDoc),
        cases: await reorder(reranker, query, hits.cases, caseDoc),
        skills: await reorder(reranker, query, hits.skills, skillDoc),
      },
    };
  } catch (err) {
    log.warn('search: rerank failed, keeping fused order', { error: err });
    return { ok: false, hits };
  }
}

async function reorder<T extends { score: number }>(
  reranker: Reranker,
  query: string,
  items: T[],
  doc: (x: T) => string,
): Promise<T[]> {
  if (!items.length) return items;
  const scores = await reranker.rerank(query, items.map(doc));
  return items
    .map((x, i) => ({ ...x, score: round(scores[i] ?? MISSING_SCORE) }))
    .sort((a, b) => b.score - a.score);
}
