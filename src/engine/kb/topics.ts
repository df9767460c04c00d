import {
  TAG_LIMIT,
  type TagReplaceData,
  type TagReplaceInput,
  type TagUsageData,
  type TopicDetailData,
  type TopicFilterListData,
  type TopicFilterQuery,
  type TopicListData,
} from '../../contract/kb.js';
import type { Db, Sql } from '../../core/db.js';
import { EngramError, notFound } from '../../core/errors.js';
import { type Ctx, requireKb } from './bases.js';
import { oneOr, pageOf } from './queries.js';
import { TOPIC_COLUMNS, type TopicRow, topicDetail, topicFilterItem, topicListItem } from './rows.js';

/** Topics: read one, a document's tree, a knowledge base's topics by tag; tag sets with compare-and-set. */
const missingTopic = (topicId: string) => notFound(`topic ${topicId} not found`);

export async function getTopic(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  docId: string,
  topicId: string,
): Promise<TopicDetailData> {
  const row = await oneOr<TopicRow & { category_id: string | null; category_name: string | null }>(
    q,
    `SELECT ${TOPIC_COLUMNS}, d.category_id, c.name AS category_name
     FROM kb_topics t JOIN kb_documents d ON d.tenant_id = t.tenant_id AND d.id = t.doc_id
     LEFT JOIN kb_categories c ON c.tenant_id = d.tenant_id AND c.id = d.category_id
     WHERE t.tenant_id = $1 AND t.kb_id = $2 AND t.doc_id = $3 AND t.id = $4`,
    [ctx.tenantId, kbId, docId, topicId],
    () => missingTopic(topicId),
  );
  return topicDetail(row);
}

/** A document's topics in document order (pre-order of the tree). */
export async function listDocTopics(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  docId: string,
  withContent: boolean,
): Promise<TopicListData> {
  const doc = await q.query('SELECT 1 FROM kb_documents WHERE tenant_id = $1 AND kb_id = $2 AND id = $3', [
    ctx.tenantId,
    kbId,
    docId,
  ]);
  if (!doc.length) throw notFound(`document ${docId} not found in knowledge base ${kbId}`);
  const rows = await q.query<TopicRow>(
    `SELECT ${TOPIC_COLUMNS} FROM kb_topics t WHERE t.tenant_id = $1 AND t.doc_id = $2 ORDER BY t.seq`,
    [ctx.tenantId, docId],
  );
  return { topics: rows.map((r) => topicListItem(r, withContent)) };
}

/** A knowledge base's topics carrying every one of the tags, a page at a time (document, then tree order). */
export async function listTopicsByTag(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  query: TopicFilterQuery,
): Promise<TopicFilterListData> {
  await requireKb(q, ctx, kbId);
  const params = [ctx.tenantId, kbId, JSON.stringify(query.tag_ids)];
  const where = `t.tenant_id = $1 AND t.kb_id = $2 AND t.tag_ids @> ARRAY(SELECT jsonb_array_elements_text($3::jsonb))`;
  const { rows, total } = await pageOf<TopicRow>(q, {
    select: TOPIC_COLUMNS,
    from: 'kb_topics t',
    where,
    orderBy: 't.doc_id, t.seq',
    params,
    page: query.page,
    pageSize: query.page_size,
  });
  return { topics: rows.map(topicFilterItem), total };
}

/**
 * Replaces a topic's tag set if `version` is its current tag version (409 otherwise).
 * Duplicates collapse in first-seen order and the first 50 distinct ids are stored; the
 * answer reports how many distinct ids were asked for (`requested`) and what was dropped. A set equal to the stored one changes nothing and the
 * version stays; any other set advances the version by one.
 */
export async function replaceTags(
  db: Db,
  ctx: Ctx,
  kbId: string,
  docId: string,
  topicId: string,
  input: TagReplaceInput,
): Promise<TagReplaceData> {
  const distinct = [...new Set(input.tag_ids)];
  const next = distinct.slice(0, TAG_LIMIT);
  const result = (tagIds: string[], version: number): TagReplaceData => ({
    topic_id: topicId,
    requested: distinct.length,
    tag_ids: tagIds,
    version,
    truncated: distinct.length > TAG_LIMIT,
    limit: TAG_LIMIT,
    dropped_count: distinct.length - next.length,
  });
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ tag_ids: string[]; tag_version: number }>(
      `SELECT tag_ids, tag_version FROM kb_topics
       WHERE tenant_id = $1 AND kb_id = $2 AND doc_id = $3 AND id = $4 FOR UPDATE`,
      [ctx.tenantId, kbId, docId, topicId],
    );
    const cur = rows[0];
    if (!cur) throw missingTopic(topicId);
    if (cur.tag_version !== input.version)
      throw new EngramError(
        'Conflict',
        `tag version conflict: topic ${topicId} is at version ${cur.tag_version}, the request expected ${input.version}; read the topic and retry`,
        { param: 'version' },
      );
    const same = cur.tag_ids.length === next.length && next.every((t) => cur.tag_ids.includes(t));
    if (same) return result(cur.tag_ids, cur.tag_version);
    const updated = await tx.query<{ tag_version: number }>(
      `UPDATE kb_topics SET tag_ids = ARRAY(SELECT jsonb_array_elements_text($3::jsonb)),
              tag_version = tag_version + 1, updated_at = now()
       WHERE tenant_id = $1 AND id = $2 RETURNING tag_version`,
      [ctx.tenantId, topicId, JSON.stringify(next)],
    );
    return result(next, updated[0]!.tag_version);
  });
}

/** For each asked tag used in the knowledge base (sorted by id): how many documents have a topic carrying it. */
export async function tagUsage(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  tagIds: readonly string[],
): Promise<TagUsageData> {
  await requireKb(q, ctx, kbId);
  const rows = await q.query<{ id: string; n: number }>(
    `SELECT x AS id, count(DISTINCT t.doc_id)::int AS n
     FROM kb_topics t, unnest(t.tag_ids) AS x
     WHERE t.tenant_id = $1 AND t.kb_id = $2 AND t.tag_ids && ARRAY(SELECT jsonb_array_elements_text($3::jsonb))
       AND x IN (SELECT jsonb_array_elements_text($3::jsonb))
     GROUP BY x ORDER BY x`,
    [ctx.tenantId, kbId, JSON.stringify([...new Set(tagIds)])],
  );
  return { items: rows.map((r) => ({ id: r.id, document_count: Number(r.n) })), total: rows.length };
}
