import {
  KB_RERANK_POOL,
  type KbSearchData,
  type KbSearchHit,
  type KbSearchInput,
} from '../../contract/kb.js';
import { invalid } from '../../core/errors.js';
import { prepareQuery, type Route, rankTarget } from '../search/hybrid.js';
import { MISSING_SCORE } from '../search/rerank.js';
import { topicTarget } from '../search/scope.js';
import { type Ctx, requireKb } from './bases.js';
import type { KbDeps } from './deps.js';
import { pageOf } from './queries.js';
import { tagRefs } from './rows.js';

/**
 * POST /api/v2/knowledge_bases/{kb_id}/search. Topics are ranked by the same core as
 * memories (rankTarget over a topic Target: BM25 keyword, pgvector cosine, or their
 * fusion), inside the category and tag filters (a topic must carry every filter tag).
 *
 * - Query search answers page 1 only: the best `KB_RERANK_POOL` (50) candidates are
 *   ranked, a configured reranker rescores the pool (a failed batch scores MISSING_SCORE,
 *   -100.0), then the scores are min-max normalised within the response (best 1.0, worst
 *   0.0, all 0.5 when the pool cannot be separated; -100.0 stays as it is), topics
 *   carrying `boost_tag_ids` gain up to TAG_BOOST by the share of boost tags they carry
 *   (never filtering), `score_threshold` drops hits below it, and the first `top_k` are
 *   returned; `total` counts the hits that passed.
 * - Without a query, `filters.tag_ids` pages through tagged topics (document, then tree
 *   order) with no retrieval: `top_k` is the page size and every hit scores 0.0 with
 *   `retrieval_method: "filter"`.
 */
export const TAG_BOOST = 0.3;
const UNSEPARATED = 0.5;

export async function searchKb(
  d: KbDeps,
  ctx: Ctx,
  kbId: string,
  input: KbSearchInput,
): Promise<KbSearchData> {
  const started = Date.now();
  await requireKb(d.db, ctx, kbId);
  const query = input.query?.trim() ?? '';
  const target = topicTarget({
    tenantId: ctx.tenantId,
    kbId,
    categoryId: input.filters.category_id,
    tagIds: input.filters.tag_ids,
  });
  const threshold = input.score_threshold ?? Number.NEGATIVE_INFINITY;
  const withContent = input.include.includes('content');

  if (!query) {
    if (!input.filters.tag_ids.length)
      throw invalid('query', 'query is required unless filters.tag_ids selects topics to page through');
    if (0 < threshold) return { hits: [], total: 0, took_ms: Date.now() - started };
    const { rows, total } = await pageOf<{ id: string }>(d.db, {
      select: 'tp.id',
      from: target.from,
      where: target.where,
      orderBy: 'tp.doc_id, tp.seq',
      params: target.params,
      page: input.page,
      pageSize: input.top_k,
    });
    const chosen = rows.map((r) => [r.id, 0] as [string, number]);
    const hits = await loadHits(d, ctx, chosen, 'filter', withContent);
    return { hits, total, took_ms: Date.now() - started };
  }
  if (input.page !== 1)
    throw invalid(
      'page',
      'a query search answers page 1 only (page through filters.tag_ids without a query)',
    );

  let route: Route = input.method;
  // The vector route reads no lexemes.
  const { query: prepared, embedFailed } = await prepareQuery(d.db, d.embedder, query, {
    terms: route !== 'vector',
    vector: route !== 'keyword',
  });
  if (embedFailed) {
    if (route === 'vector') throw embedFailed.error;
    d.log.warn('kb search: query embedding failed, using the keyword route', { error: embedFailed.error });
    route = 'keyword';
  }
  const ranked = await rankTarget(
    { db: d.db, index: await d.vectorIndex() },
    target,
    route,
    prepared,
    KB_RERANK_POOL,
  );
  let scored = [...ranked.entries()].sort(byScore);
  if (d.reranker && scored.length) scored = await rerank(d, ctx, query, scored);
  scored = normalise(scored);
  if (input.boost_tag_ids.length && scored.length) scored = await boost(d, ctx, scored, input.boost_tag_ids);
  const passed = scored.filter(([, s]) => s >= threshold);
  const hits = await loadHits(d, ctx, passed.slice(0, input.top_k), route, withContent);
  return { hits, total: passed.length, took_ms: Date.now() - started };
}

/** Min-max normalisation within one response; failed rerank scores keep their marker. */
export function normalise(scored: readonly [string, number][]): [string, number][] {
  const real = scored.map(([, s]) => s).filter((s) => s !== MISSING_SCORE);
  const lo = Math.min(...real);
  const hi = Math.max(...real);
  return scored.map(([id, s]) => {
    if (s === MISSING_SCORE) return [id, s];
    return [id, hi > lo ? (s - lo) / (hi - lo) : UNSEPARATED];
  });
}

const byScore = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

/** Adds TAG_BOOST times the share of the boost tags each topic carries (failed rerank scores stay). */
async function boost(
  d: KbDeps,
  ctx: Ctx,
  scored: [string, number][],
  tagIds: readonly string[],
): Promise<[string, number][]> {
  const wanted = [...new Set(tagIds)];
  const rows = await d.db.query<{ id: string; n: number }>(
    `SELECT id, cardinality(ARRAY(SELECT unnest(tag_ids) INTERSECT SELECT jsonb_array_elements_text($3::jsonb)))::int AS n
     FROM kb_topics WHERE tenant_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [ctx.tenantId, JSON.stringify(scored.map(([id]) => id)), JSON.stringify(wanted)],
  );
  const carried = new Map(rows.map((r) => [r.id, Number(r.n)]));
  return scored
    .map(([id, s]) => {
      const share = (carried.get(id) ?? 0) / wanted.length;
      return [id, s === MISSING_SCORE ? s : s + TAG_BOOST * share] as [string, number];
    })
    .sort(byScore);
}

/** Candidates per rerank request: a failed request costs only its own batch (-100.0 each). */
export const RERANK_BATCH = 25;

async function rerank(
  d: KbDeps,
  ctx: Ctx,
  query: string,
  scored: [string, number][],
): Promise<[string, number][]> {
  const rows = await d.db.query<{ id: string; text: string }>(
    `SELECT id, name || E'\\n' || summary || E'\\n' || left(content, 2000) AS text FROM kb_topics
     WHERE tenant_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [ctx.tenantId, JSON.stringify(scored.map(([id]) => id))],
  );
  const text = new Map(rows.map((r) => [r.id, r.text]));
  const batches: [string, number][][] = [];
  for (let i = 0; i < scored.length; i += RERANK_BATCH) batches.push(scored.slice(i, i + RERANK_BATCH));
  const rescored = await Promise.all(
    batches.map(async (batch) => {
      try {
        const scores = await d.reranker!.rerank(
          query,
          batch.map(([id]) => text.get(id) ?? ''),
        );
        return batch.map(([id], i) => [id, scores[i] ?? MISSING_SCORE] as [string, number]);
      } catch (err) {
        d.log.warn('kb search: a rerank batch failed, its topics score -100', { error: err });
        return batch.map(([id]) => [id, MISSING_SCORE] as [string, number]);
      }
    }),
  );
  return rescored.flat().sort(byScore);
}

interface HitRow {
  [k: string]: unknown;
  id: string;
  doc_id: string;
  kb_id: string;
  name: string;
  depth: number;
  summary: string;
  content: string;
  tag_ids: string[];
  updated_at: Date | string;
  title: string;
  doc_summary: string | null;
  source_name: string | null;
  category_id: string | null;
  category_name: string | null;
}

async function loadHits(
  d: KbDeps,
  ctx: Ctx,
  chosen: [string, number][],
  method: KbSearchHit['retrieval_method'],
  withContent: boolean,
): Promise<KbSearchHit[]> {
  if (!chosen.length) return [];
  const rows = await d.db.query<HitRow>(
    `SELECT tp.id, tp.doc_id, tp.kb_id, tp.name, tp.depth, tp.summary, tp.content, tp.tag_ids, tp.updated_at,
            d.title, d.summary AS doc_summary, d.source_name, d.category_id, c.name AS category_name
     FROM kb_topics tp JOIN kb_documents d ON d.tenant_id = tp.tenant_id AND d.id = tp.doc_id
     LEFT JOIN kb_categories c ON c.tenant_id = d.tenant_id AND c.id = d.category_id
     WHERE tp.tenant_id = $1 AND tp.id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [ctx.tenantId, JSON.stringify(chosen.map(([id]) => id))],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return chosen.flatMap(([id, score]) => {
    const r = byId.get(id);
    if (!r) return [];
    const hit: KbSearchHit = {
      object: 'topic',
      id: r.id,
      doc_id: r.doc_id,
      kb_id: r.kb_id,
      category_id: r.category_id ?? '',
      category_name: r.category_name,
      name: r.name,
      depth: r.depth,
      summary: r.summary,
      score,
      retrieval_method: method,
      source: r.source_name,
      document: { doc_id: r.doc_id, title: r.title, summary: r.doc_summary },
      tags: tagRefs(r.tag_ids),
      updated_at: new Date(r.updated_at).toISOString(),
    };
    if (withContent) hit.content = r.content;
    return [hit];
  });
}
