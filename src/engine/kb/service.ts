import type {
  CategoryCreateInput,
  CategoryPatchInput,
  DocContent,
  DocListQuery,
  DocPatchInput,
  KbCreateInput,
  KbListQuery,
  KbPatchInput,
  KbSearchInput,
  TagReplaceInput,
  TopicFilterQuery,
} from '../../contract/kb.js';
import type { Ctx } from './bases.js';
import * as bases from './bases.js';
import type { KbDeps } from './deps.js';
import * as docs from './documents.js';
import { runIngest } from './ingest.js';
import { searchKb } from './search.js';
import { readSource } from './source.js';
import * as topics from './topics.js';
import * as wiki from './wiki.js';

/**
 * The knowledge-base engine: knowledge bases, categories, documents (split into topic
 * trees by the `kb.ingest` task), topics with their tags, and topic search. Every call
 * is confined to the caller's tenant. Transports (REST, MCP) call only this class.
 */
export type { Ctx };

/** A document to ingest: the JSON body (a multipart upload arrives as the same shape, its file in base64). */
export type DocInput = { title: string; category_id: string; content: DocContent };

const write = async (d: KbDeps, ctx: Ctx, input: DocInput): Promise<docs.DocWrite> => ({
  title: input.title,
  categoryId: input.category_id,
  source: await readSource(input.content, (key, param) => d.objectFile(ctx.tenantId, key, param)),
});

export class KnowledgeService {
  constructor(private readonly d: KbDeps) {
    d.queue.register(docs.INGEST_TASK, (t) => runIngest(d, t));
  }

  createKb = (ctx: Ctx, input: KbCreateInput) => bases.createKb(this.d.db, ctx, input);
  getKb = (ctx: Ctx, kbId: string) => bases.getKb(this.d.db, ctx, kbId);
  listKbs = (ctx: Ctx, query: KbListQuery) => bases.listKbs(this.d.db, ctx, query);
  patchKb = (ctx: Ctx, kbId: string, input: KbPatchInput) => bases.patchKb(this.d.db, ctx, kbId, input);
  async deleteKb(ctx: Ctx, kbId: string) {
    const data = await bases.deleteKb(this.d.db, ctx, kbId);
    this.d.events.emitKb({ tenantId: ctx.tenantId, kbId });
    return data;
  }

  createCategory = (ctx: Ctx, kbId: string, input: CategoryCreateInput) =>
    bases.createCategory(this.d.db, ctx, kbId, input);
  listCategories = (ctx: Ctx, kbId: string) => bases.listCategories(this.d.db, ctx, kbId);
  patchCategory = (ctx: Ctx, kbId: string, categoryId: string, input: CategoryPatchInput) =>
    bases.patchCategory(this.d.db, ctx, kbId, categoryId, input);
  deleteCategory = (ctx: Ctx, kbId: string, categoryId: string) =>
    bases.deleteCategory(this.d.db, ctx, kbId, categoryId);

  /** Stores the document and enqueues its splitting (202 + task id); a file is read first (422 when it cannot be). */
  async ingestDocument(ctx: Ctx, kbId: string, input: DocInput) {
    await bases.requireKb(this.d.db, ctx, kbId);
    return docs.ingestDocument(this.d, ctx, kbId, await write(this.d, ctx, input));
  }
  async replaceDocument(ctx: Ctx, kbId: string, docId: string, input: DocInput) {
    await docs.getDocument(this.d.db, ctx, kbId, docId);
    const source = await write(this.d, ctx, input);
    return wiki.withDocumentFiles(this.d, ctx, docId, async () => {
      const file = await wiki.documentFile(this.d.db, ctx, kbId, docId);
      const data = await docs.replaceDocument(this.d, ctx, kbId, docId, source);
      await wiki.removeWikiFiles(this.d, ctx.tenantId, docId, file);
      return data;
    });
  }
  getDocument = (ctx: Ctx, kbId: string, docId: string) => docs.getDocument(this.d.db, ctx, kbId, docId);
  listDocuments = (ctx: Ctx, kbId: string, query: DocListQuery) =>
    docs.listDocuments(this.d.db, ctx, kbId, query);
  patchDocument = (ctx: Ctx, kbId: string, docId: string, input: DocPatchInput) =>
    docs.patchDocument(this.d.db, ctx, kbId, docId, input);
  deleteDocument = (ctx: Ctx, kbId: string, docId: string) =>
    wiki.withDocumentFiles(this.d, ctx, docId, async () => {
      const file = await wiki.documentFile(this.d.db, ctx, kbId, docId);
      const data = await docs.deleteDocument(this.d.db, ctx, kbId, docId);
      await wiki.removeWikiFiles(this.d, ctx.tenantId, docId, file);
      return data;
    });

  documentsPage = (ctx: Ctx, offset: number, limit: number) =>
    docs.documentsPage(this.d.db, ctx, offset, limit);

  getTopic = (ctx: Ctx, kbId: string, docId: string, topicId: string) =>
    topics.getTopic(this.d.db, ctx, kbId, docId, topicId);
  listDocTopics = (ctx: Ctx, kbId: string, docId: string, withContent: boolean) =>
    topics.listDocTopics(this.d.db, ctx, kbId, docId, withContent);
  listTopicsByTag = (ctx: Ctx, kbId: string, query: TopicFilterQuery) =>
    topics.listTopicsByTag(this.d.db, ctx, kbId, query);
  async replaceTags(ctx: Ctx, kbId: string, docId: string, topicId: string, input: TagReplaceInput) {
    const data = await topics.replaceTags(this.d.db, ctx, kbId, docId, topicId, input);
    if (data.version !== input.version)
      this.d.events.emitKb({ tenantId: ctx.tenantId, kbId, docId, topicId });
    return data;
  }
  tagUsage = (ctx: Ctx, kbId: string, tagIds: readonly string[]) =>
    topics.tagUsage(this.d.db, ctx, kbId, tagIds);

  search = (ctx: Ctx, kbId: string, input: KbSearchInput) => searchKb(this.d, ctx, kbId, input);

  /** The v1 knowledge wiki: a document by its id alone, and its synchronous replace from a file. */
  wikiDocument = (ctx: Ctx, docId: string) => wiki.getWikiDocument(this.d.db, ctx, docId);
  replaceWikiDocument = (ctx: Ctx, docId: string, input: wiki.WikiReplace) =>
    wiki.replaceWikiDocument(this.d, ctx, docId, input);
}
