import type { WikiDocument, WikiReplaceData } from '../../contract/v1-knowledge.js';
import type { Sql } from '../../core/db.js';
import { EngramError, invalid, notFound } from '../../core/errors.js';
import { isoRequired } from '../../core/time.js';
import { type Ctx, requireCategory } from './bases.js';
import type { KbDeps } from './deps.js';
import { buildTopics, storeTopics } from './ingest.js';
import { FILE_KINDS, fileToMarkdown } from './parsers.js';
import { oneOr } from './queries.js';

/**
 * The v1 knowledge wiki on the knowledge-base engine: a document read by its id alone,
 * and a synchronous replace from an uploaded file. The file and its Markdown are kept in
 * the object store (`knowledge/<doc_id>/<file name>` and `knowledge/<doc_id>/<doc_id>.md`).
 *
 * A replace backs up what it will overwrite (the stored files under the keys it writes),
 * stores the new file, reads it, stores its Markdown, splits, summarises and embeds it,
 * and only then swaps the document's row and topics in one transaction. If anything fails
 * on the way the backed-up files are put back (and files it created removed), and the row
 * and topics were never touched: the previous document stays whole.
 */
/** The largest file a replace takes (and the most a backup reads of a stored one). */
export const WIKI_MAX_FILE_BYTES = 100 * 1024 * 1024;

export interface WikiFile {
  name: string;
  bytes: Buffer;
}
export interface WikiReplace {
  file: WikiFile;
  title?: string | undefined;
  sourceType?: string | undefined;
  categoryId?: string | undefined;
}

interface WikiRow {
  [k: string]: unknown;
  id: string;
  kb_id: string;
  category_id: string | null;
  title: string;
  summary: string | null;
  source_name: string | null;
  source_type: string | null;
  original_key: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const wikiDir = (docId: string) => `knowledge/${docId}`;
export const originalKey = (docId: string, fileName: string) => `${wikiDir(docId)}/${fileName}`;
export const markdownKey = (docId: string) => `${wikiDir(docId)}/${docId}.md`;

const missing = (docId: string) => notFound(`knowledge document ${docId} not found`);
const row = (q: Sql, ctx: Ctx, docId: string) =>
  oneOr<WikiRow>(
    q,
    `SELECT id, kb_id, category_id, title, summary, source_name, source_type, original_key, created_at,
            updated_at
     FROM kb_documents WHERE tenant_id = $1 AND id = $2`,
    [ctx.tenantId, docId],
    () => missing(docId),
  );

export async function getWikiDocument(q: Sql, ctx: Ctx, docId: string): Promise<WikiDocument> {
  const doc = await row(q, ctx, docId);
  const topics = await q.query<{ id: string; name: string; depth: number; summary: string; path: string[] }>(
    `SELECT id, name, depth, summary, ARRAY(SELECT jsonb_array_elements_text(metadata->'path')) AS path
     FROM kb_topics WHERE tenant_id = $1 AND doc_id = $2 AND type <> 'root' ORDER BY seq`,
    [ctx.tenantId, docId],
  );
  return {
    doc_id: doc.id,
    category_id: doc.category_id ?? '',
    title: doc.title,
    summary: doc.summary ?? '',
    source_name: doc.source_name ?? '',
    source_type: doc.source_type ?? '',
    original_file_path: doc.original_key ?? '',
    topics: topics.map((t) => ({
      topic_id: t.id,
      topic_name: t.name,
      topic_path: (t.path ?? []).join(' / '),
      depth: Number(t.depth),
      summary: t.summary,
    })),
    created_at: isoRequired(doc.created_at),
    updated_at: isoRequired(doc.updated_at),
  };
}

/**
 * Runs a change of the document's files (wiki replace, v2 replace, delete) after the ones
 * already running, in any engram process on the database: the files are written outside
 * the database, so two replaces on two nodes must not interleave.
 */
export const withDocumentFiles = <T>(d: KbDeps, ctx: Ctx, docId: string, run: () => Promise<T>): Promise<T> =>
  d.db.exclusive(`kb-document-files\n${ctx.tenantId}\n${docId}`, run);

export function replaceWikiDocument(
  d: KbDeps,
  ctx: Ctx,
  docId: string,
  w: WikiReplace,
): Promise<WikiReplaceData> {
  return withDocumentFiles(d, ctx, docId, () => replace(d, ctx, docId, w));
}

/** The object key of the file the document was made from, if any (a wiki upload or an uploaded object). */
export async function documentFile(q: Sql, ctx: Ctx, kbId: string, docId: string): Promise<string | null> {
  const [r] = await q.query<{ original_key: string | null }>(
    'SELECT original_key FROM kb_documents WHERE tenant_id = $1 AND kb_id = $2 AND id = $3',
    [ctx.tenantId, kbId, docId],
  );
  return r?.original_key ?? null;
}

/**
 * Removes the wiki's files of a document that was deleted, or replaced through v2 (its
 * text no longer comes from them): its Markdown and the uploaded file kept under the
 * document (an uploaded object named as its source belongs to the uploader and stays).
 */
export async function removeWikiFiles(
  d: KbDeps,
  tenantId: string,
  docId: string,
  originalKey: string | null,
) {
  const keys = [markdownKey(docId)];
  if (originalKey?.startsWith(`${wikiDir(docId)}/`)) keys.push(originalKey);
  for (const key of keys)
    await d.objects.remove(tenantId, key).catch((err: unknown) => {
      d.log.warn('kb: could not remove a document file', { key, error: String(err) });
    });
}

async function replace(d: KbDeps, ctx: Ctx, docId: string, w: WikiReplace): Promise<WikiReplaceData> {
  const prev = await row(d.db, ctx, docId);
  const dot = w.file.name.lastIndexOf('.');
  const ext = dot > 0 ? w.file.name.slice(dot + 1).toLowerCase() : '';
  const kind = FILE_KINDS[ext];
  if (!kind)
    throw invalid('file', `files of type .${ext} cannot be read: send .md, .txt, .html, .docx or .pdf`);
  if (w.file.bytes.length > WIKI_MAX_FILE_BYTES)
    throw invalid('file', `the file exceeds ${WIKI_MAX_FILE_BYTES} bytes`);
  const categoryId = w.categoryId ?? prev.category_id ?? '';
  if (categoryId) await requireCategory(d.db, ctx, prev.kb_id, categoryId);
  const title = w.title ?? prev.title;
  const original = originalKey(docId, w.file.name);
  const markdown = markdownKey(docId);

  const backup = await backUp(d.objects, ctx.tenantId, [original, markdown]);
  let topicCount: number;
  try {
    await d.objects.write(ctx.tenantId, original, w.file.bytes);
    const text = await fileToMarkdown(w.file.bytes, kind, 'file');
    if (!text.trim()) throw invalid('file', 'the file holds no text');
    await d.objects.write(ctx.tenantId, markdown, Buffer.from(text, 'utf8'));
    const topics = await buildTopics(d, title, text);
    topicCount = await d.db.transaction(async (tx) => {
      const live = await tx.query('SELECT 1 FROM kb_documents WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [
        ctx.tenantId,
        docId,
      ]);
      if (!live.length) throw missing(docId);
      await tx.query(
        `UPDATE kb_documents SET title = $3, category_id = nullif($4, ''), source_name = $5, source_type = $6,
                body = $7, original_key = $8
         WHERE tenant_id = $1 AND id = $2`,
        [ctx.tenantId, docId, title, categoryId, w.file.name, w.sourceType ?? kind, text, original],
      );
      return storeTopics(tx, { tenantId: ctx.tenantId, kbId: prev.kb_id, docId }, topics);
    });
  } catch (err) {
    await restore(d, ctx.tenantId, backup);
    if (err instanceof EngramError) throw err;
    // a provider (embeddings, LLM) or the store failed: the caller may retry as it was
    throw new EngramError(
      'ServiceUnavailable',
      'the document could not be replaced (it is unchanged); retry later',
      { retryAfter: 30, cause: err },
    );
  }
  // the file the document was made from before, under another name, is no longer its own
  if (prev.original_key && prev.original_key !== original)
    await d.objects.remove(ctx.tenantId, prev.original_key).catch((err: unknown) => {
      d.log.warn('kb: could not remove a replaced file', { key: prev.original_key, error: String(err) });
    });
  d.events.emitKb({ tenantId: ctx.tenantId, kbId: prev.kb_id, docId });
  return {
    doc_id: docId,
    category_id: categoryId,
    topic_count: topicCount,
    source_name: w.file.name,
    md_path: markdown,
    original_file_path: original,
  };
}

/** What is stored under each key now (undefined: nothing). */
async function backUp(objects: KbDeps['objects'], tenantId: string, keys: string[]) {
  const saved = new Map<string, Buffer | undefined>();
  for (const key of new Set(keys)) saved.set(key, await objects.read(tenantId, key, WIKI_MAX_FILE_BYTES));
  return saved;
}

/** Puts every backed-up key back as it was; a key that held nothing is removed. */
async function restore(d: KbDeps, tenantId: string, saved: Map<string, Buffer | undefined>) {
  for (const [key, bytes] of saved) {
    try {
      if (bytes) await d.objects.write(tenantId, key, bytes);
      else await d.objects.remove(tenantId, key);
    } catch (err) {
      d.log.error('kb: could not restore a file of a failed replace', { key, error: String(err) });
    }
  }
}
