import type {
  DocData,
  DocDeleteData,
  DocIngestData,
  DocListData,
  DocListQuery,
  DocPatchData,
  DocPatchInput,
} from '../../contract/kb.js';
import type { Sql } from '../../core/db.js';
import { notFound } from '../../core/errors.js';
import { isoRequired } from '../../core/time.js';
import { type Ctx, requireCategory, requireKb } from './bases.js';
import type { KbDeps } from './deps.js';
import { oneOr, pageOf } from './queries.js';
import { DOC_COLUMNS, type DocRow, docData, newDocId } from './rows.js';
import type { DocSource } from './source.js';

/**
 * Documents of a knowledge base. Ingest and replace store the document's text at once
 * and enqueue a `kb.ingest` task that splits it into topics (see ingest.ts): the answer is
 * 202 with the task id, and a replaced document keeps serving its old topics until the
 * task swaps in the new ones in one transaction. Tasks of one document run in order.
 */
export const INGEST_TASK = 'kb.ingest';

export interface DocWrite {
  title: string;
  categoryId: string;
  source: DocSource;
}

const chainOf = (docId: string) => `kb_doc:${docId}`;

export async function ingestDocument(d: KbDeps, ctx: Ctx, kbId: string, w: DocWrite): Promise<DocIngestData> {
  const id = newDocId();
  const taskId = await d.db.transaction(async (tx) => {
    await requireKb(tx, ctx, kbId);
    if (w.categoryId) await requireCategory(tx, ctx, kbId, w.categoryId);
    await tx.query(
      `INSERT INTO kb_documents (tenant_id, id, kb_id, category_id, title, source_name, source_type, body,
                                 original_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        ctx.tenantId,
        id,
        kbId,
        w.categoryId || null,
        w.title,
        w.source.sourceName,
        w.source.sourceType,
        w.source.text,
        w.source.objectKey ?? null,
      ],
    );
    return enqueueIngest(d, tx, ctx, kbId, id);
  });
  d.queue.wake();
  return { id, status: 'queued', task_id: taskId };
}

/** PUT: the document's title, category and text are replaced; its topics follow when the task runs. */
export async function replaceDocument(
  d: KbDeps,
  ctx: Ctx,
  kbId: string,
  docId: string,
  w: DocWrite,
): Promise<DocIngestData> {
  const taskId = await d.db.transaction(async (tx) => {
    if (w.categoryId) await requireCategory(tx, ctx, kbId, w.categoryId);
    const rows = await tx.query(
      `UPDATE kb_documents SET title = $4, category_id = $5, source_name = $6, source_type = $7, body = $8,
              original_key = $9, status = 'queued', updated_at = now()
       WHERE tenant_id = $1 AND kb_id = $2 AND id = $3 RETURNING id`,
      [
        ctx.tenantId,
        kbId,
        docId,
        w.title,
        w.categoryId || null,
        w.source.sourceName,
        w.source.sourceType,
        w.source.text,
        w.source.objectKey ?? null,
      ],
    );
    if (!rows.length) throw notFound(`document ${docId} not found in knowledge base ${kbId}`);
    return enqueueIngest(d, tx, ctx, kbId, docId);
  });
  d.queue.wake();
  return { id: docId, status: 'queued', task_id: taskId };
}

async function enqueueIngest(d: KbDeps, tx: Sql, ctx: Ctx, kbId: string, docId: string): Promise<string> {
  const task = await d.queue.enqueue(tx, {
    tenantId: ctx.tenantId,
    type: INGEST_TASK,
    chainKey: chainOf(docId),
    object: 'document',
    objectId: docId,
    payload: { kb_id: kbId, doc_id: docId },
    maxAttempts: 3,
  });
  return task.id;
}

export async function getDocument(q: Sql, ctx: Ctx, kbId: string, docId: string): Promise<DocData> {
  const row = await oneOr<DocRow>(
    q,
    `SELECT ${DOC_COLUMNS} FROM kb_documents d WHERE d.tenant_id = $1 AND d.kb_id = $2 AND d.id = $3`,
    [ctx.tenantId, kbId, docId],
    () => notFound(`document ${docId} not found in knowledge base ${kbId}`),
  );
  return docData(row);
}

export async function listDocuments(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  query: DocListQuery,
): Promise<DocListData> {
  await requireKb(q, ctx, kbId);
  const params = [ctx.tenantId, kbId, query.category_id ?? null];
  const where = 'd.tenant_id = $1 AND d.kb_id = $2 AND ($3::text IS NULL OR d.category_id = $3)';
  const { rows, total } = await pageOf<DocRow>(q, {
    select: DOC_COLUMNS,
    from: 'kb_documents d',
    where,
    orderBy: 'd.created_at DESC, d.id',
    params,
    page: query.page,
    pageSize: query.page_size,
  });
  return { documents: rows.map(docData), total };
}

/** PATCH: title and category (an empty category_id removes the category). */
export async function patchDocument(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  docId: string,
  input: DocPatchInput,
): Promise<DocPatchData> {
  const fields: string[] = [];
  if (input.title != null) fields.push('title');
  if (input.category_id != null) {
    if (input.category_id) await requireCategory(q, ctx, kbId, input.category_id);
    fields.push('category_id');
  }
  const rows = await q.query<{ updated_at: Date | string }>(
    `UPDATE kb_documents SET title = coalesce($4, title),
            category_id = CASE WHEN $5::text IS NULL THEN category_id ELSE nullif($5, '') END,
            updated_at = CASE WHEN $6 THEN now() ELSE updated_at END
     WHERE tenant_id = $1 AND kb_id = $2 AND id = $3 RETURNING updated_at`,
    [ctx.tenantId, kbId, docId, input.title ?? null, input.category_id ?? null, fields.length > 0],
  );
  if (!rows[0]) throw notFound(`document ${docId} not found in knowledge base ${kbId}`);
  return { id: docId, updated_fields: fields, updated_at: isoRequired(rows[0].updated_at) };
}

export async function deleteDocument(q: Sql, ctx: Ctx, kbId: string, docId: string): Promise<DocDeleteData> {
  const rows = await q.query<{ n: number }>(
    `WITH t AS (SELECT count(*)::int AS n FROM kb_topics WHERE tenant_id = $1 AND doc_id = $3),
          d AS (DELETE FROM kb_documents WHERE tenant_id = $1 AND kb_id = $2 AND id = $3 RETURNING id)
     SELECT t.n FROM d, t`,
    [ctx.tenantId, kbId, docId],
  );
  if (!rows[0]) throw notFound(`document ${docId} not found in knowledge base ${kbId}`);
  return { id: docId, deleted: true, deleted_topics: Number(rows[0].n) };
}

/** A page of the tenant's documents across its knowledge bases, in a stable order (MCP resources/list). */
export async function documentsPage(
  q: Sql,
  ctx: Ctx,
  offset: number,
  limit: number,
): Promise<{ kb_id: string; id: string; title: string }[]> {
  return q.query<{ kb_id: string; id: string; title: string }>(
    `SELECT kb_id, id, title FROM kb_documents WHERE tenant_id = $1 ORDER BY kb_id, id
     LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
    [ctx.tenantId],
  );
}
