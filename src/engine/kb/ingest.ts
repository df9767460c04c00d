import type { Sql } from '../../core/db.js';
import type { TaskRow } from '../jobs/queue.js';
import { vectorText } from '../search/vector.js';
import type { KbDeps } from './deps.js';
import { newTopicId } from './rows.js';
import { splitDocument, type TopicDraft } from './split.js';
import { Summarizer, topicText } from './summarize.js';

/**
 * The `kb.ingest` task: splits a document's text into its topic tree, summarises and
 * embeds every topic in batches (recording progress, topics done / total, on the task as
 * it goes), then swaps the document's topics for the new ones and marks it ready, in one
 * transaction. Re-running the task (after a crash) redoes the work from the stored text.
 */
const BATCH = 32;
const INSERT_BATCH = 200;

/** The text a topic's embedding is computed from (also used by `engram reindex`). */
export const topicEmbeddingText = (t: { name: string; summary: string; content: string }) =>
  `${t.name}\n${t.summary}\n${t.content}`.slice(0, 4000);

interface DocToIngest {
  [k: string]: unknown;
  tenant_id: string;
  kb_id: string;
  title: string;
  body: string;
}

export async function runIngest(d: KbDeps, task: TaskRow): Promise<unknown> {
  const docId = String(task.payload['doc_id']);
  const rows = await d.db.query<DocToIngest>(
    `UPDATE kb_documents SET status = 'processing' WHERE tenant_id = $1 AND id = $2
     RETURNING tenant_id, kb_id, title, body`,
    [task.tenant_id, docId],
  );
  const doc = rows[0];
  if (!doc) return { doc_id: docId, skipped: 'document deleted' };

  const topics = await buildTopics(d, doc.title, doc.body, (done, total) =>
    progress(d.db, task, done, total),
  );
  const stored = await d.db.transaction(async (tx) => {
    const live = await tx.query('SELECT 1 FROM kb_documents WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [
      doc.tenant_id,
      docId,
    ]);
    if (!live.length) return false;
    await storeTopics(tx, { tenantId: doc.tenant_id, kbId: doc.kb_id, docId }, topics);
    return true;
  });
  if (!stored) return { doc_id: docId, skipped: 'document deleted' };
  d.events.emitKb({ tenantId: doc.tenant_id, kbId: doc.kb_id, docId });
  d.log.debug('kb: document ingested', { doc_id: docId, topics: topics.drafts.length });
  const total = topics.drafts.length;
  return { doc_id: docId, topic_count: total - 1, progress: { done: total, total } };
}

/** A document's topic tree, summarised and embedded, ready to be stored. */
export interface BuiltTopics {
  drafts: TopicDraft[];
  summaries: string[];
  vectors: number[][];
}

/** Splits a document's text into its topic tree, then summarises and embeds every topic in batches. */
export async function buildTopics(
  d: KbDeps,
  title: string,
  body: string,
  onProgress: (done: number, total: number) => Promise<void> = async () => {},
): Promise<BuiltTopics> {
  const drafts = splitDocument(title, body);
  const total = drafts.length;
  await onProgress(0, total);
  const summarizer = new Summarizer(d.llm, d.log);
  const summaries: string[] = [];
  const vectors: number[][] = [];
  for (let i = 0; i < drafts.length; i += BATCH) {
    const batch = drafts.slice(i, i + BATCH);
    const sums = await summarizer.summarize(
      batch.map((t) => ({
        name: t.name,
        text: topicText(t, drafts),
        context: [title, ...t.path].join(' > '),
      })),
    );
    summaries.push(...sums);
    vectors.push(
      ...(await d.embedder.embed(
        batch.map((t, j) => topicEmbeddingText({ name: t.name, summary: sums[j]!, content: t.content })),
      )),
    );
    await onProgress(Math.min(i + BATCH, total), total);
  }
  return { drafts, summaries, vectors };
}

/**
 * Swaps a document's topics for the built ones and marks it ready with its summary and
 * topic count; run it in the transaction that holds the document's row.
 */
export async function storeTopics(
  tx: Sql,
  doc: { tenantId: string; kbId: string; docId: string },
  t: BuiltTopics,
): Promise<number> {
  const ids = t.drafts.map(() => newTopicId());
  await tx.query('DELETE FROM kb_topics WHERE tenant_id = $1 AND doc_id = $2', [doc.tenantId, doc.docId]);
  for (let i = 0; i < t.drafts.length; i += INSERT_BATCH)
    await insertTopics(tx, doc, t.drafts.slice(i, i + INSERT_BATCH), ids, t.summaries, t.vectors);
  // topic_count counts real topics: the document root is not one
  const topicCount = t.drafts.length - 1;
  await tx.query(
    `UPDATE kb_documents SET status = 'ready', summary = $3, topic_count = $4, updated_at = now()
     WHERE tenant_id = $1 AND id = $2`,
    [doc.tenantId, doc.docId, t.summaries[0] ?? '', topicCount],
  );
  return topicCount;
}

async function progress(q: Sql, task: TaskRow, done: number, total: number): Promise<void> {
  await q.query(`UPDATE tasks SET result = $3::jsonb WHERE tenant_id = $1 AND id = $2`, [
    task.tenant_id,
    task.id,
    JSON.stringify({ progress: { done, total } }),
  ]);
}

async function insertTopics(
  tx: Sql,
  doc: { tenantId: string; kbId: string; docId: string },
  batch: readonly TopicDraft[],
  ids: readonly string[],
  summaries: readonly string[],
  vectors: readonly number[][],
): Promise<void> {
  const rows = batch.map((t) => ({
    id: ids[t.seq]!,
    type: t.type,
    name: t.name,
    summary: summaries[t.seq]!,
    content: t.content,
    depth: t.depth,
    seq: t.seq,
    parent_id: t.parent === null ? null : ids[t.parent]!,
    children_ids: t.children.map((c) => ids[c]!),
    metadata: { path: t.path },
    embedding: vectorText(vectors[t.seq]!),
  }));
  await tx.query(
    `INSERT INTO kb_topics (tenant_id, id, kb_id, doc_id, type, name, summary, content, depth, seq, parent_id,
                           children_ids, metadata, embedding, search)
     SELECT $1, r.id, $2, $3, r.type, r.name, r.summary, r.content, r.depth, r.seq, r.parent_id,
            ARRAY(SELECT jsonb_array_elements_text(r.children_ids)), r.metadata, r.embedding::vector,
            setweight(to_tsvector('english', r.name), 'A') || setweight(to_tsvector('english', r.summary), 'B')
              || setweight(to_tsvector('english', r.content), 'C')
     FROM jsonb_to_recordset($4::jsonb) AS r(id text, type text, name text, summary text, content text, depth int,
          seq int, parent_id text, children_ids jsonb, metadata jsonb, embedding text)`,
    [doc.tenantId, doc.kbId, doc.docId, JSON.stringify(rows)],
  );
}
