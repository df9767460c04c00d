import type { Hono } from 'hono';
import {
  CategoryCreateInput,
  CategoryData,
  CategoryListData,
  CategoryParams,
  CategoryPatchInput,
  DeleteData,
  DocData,
  DocDeleteData,
  DocIngestData,
  DocIngestInput,
  DocListData,
  DocListQuery,
  DocParams,
  DocPatchData,
  DocPatchInput,
  KbCreateInput,
  KbData,
  KbListData,
  KbListQuery,
  KbParams,
  KbPatchInput,
  KbSearchData,
  KbSearchInput,
  TagReplaceData,
  TagReplaceInput,
  TagUsageData,
  TagUsageInput,
  TopicDetailData,
  TopicFilterListData,
  TopicFilterQuery,
  TopicListData,
  TopicListQuery,
  TopicParams,
} from '../../contract/kb.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { documentForm } from '../upload.js';
import { operation } from './operation.js';

/** The v2 knowledge-base routes: knowledge bases, categories, documents, topics, tags and search. */
export function kbRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const kb = engram.kb;
  const ctx = (c: { get(k: 'principal'): { tenantId: string } }) => ({
    tenantId: c.get('principal').tenantId,
  });
  const tag = 'Knowledge bases';
  const base = '/api/v2/knowledge_bases';

  operation(
    app,
    {
      method: 'post',
      tag,
      path: base,
      operationId: 'createKnowledgeBase',
      summary: 'Create a knowledge base',
      body: KbCreateInput,
      data: KbData,
      statuses: [201],
    },
    async (c, { body }) => ({ data: await kb.createKb(ctx(c), body), status: 201 }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: base,
      operationId: 'listKnowledgeBases',
      summary: "The tenant's knowledge bases, newest first",
      query: KbListQuery,
      data: KbListData,
    },
    async (c, { query }) => ({ data: await kb.listKbs(ctx(c), query) }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id`,
      operationId: 'getKnowledgeBase',
      summary: 'One knowledge base',
      params: KbParams,
      data: KbData,
    },
    async (c, { params }) => ({ data: await kb.getKb(ctx(c), params.kb_id) }),
  );
  operation(
    app,
    {
      method: 'patch',
      tag,
      path: `${base}/:kb_id`,
      operationId: 'updateKnowledgeBase',
      summary: 'Rename a knowledge base or change its description',
      params: KbParams,
      body: KbPatchInput,
      data: KbData,
    },
    async (c, { params, body }) => ({ data: await kb.patchKb(ctx(c), params.kb_id, body) }),
  );
  operation(
    app,
    {
      method: 'delete',
      tag,
      path: `${base}/:kb_id`,
      operationId: 'deleteKnowledgeBase',
      summary: 'Delete a knowledge base with its categories, documents and topics',
      params: KbParams,
      data: DeleteData,
    },
    async (c, { params }) => ({ data: await kb.deleteKb(ctx(c), params.kb_id) }),
  );

  // ---------------------------------------------------------------- categories
  operation(
    app,
    {
      method: 'post',
      tag,
      path: `${base}/:kb_id/categories`,
      operationId: 'createCategory',
      summary: 'Create a category',
      params: KbParams,
      body: CategoryCreateInput,
      data: CategoryData,
      statuses: [201],
    },
    async (c, { params, body }) => ({
      data: await kb.createCategory(ctx(c), params.kb_id, body),
      status: 201,
    }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id/categories`,
      operationId: 'listCategories',
      summary: "A knowledge base's categories",
      params: KbParams,
      data: CategoryListData,
    },
    async (c, { params }) => ({ data: await kb.listCategories(ctx(c), params.kb_id) }),
  );
  operation(
    app,
    {
      method: 'patch',
      tag,
      path: `${base}/:kb_id/categories/:category_id`,
      operationId: 'updateCategory',
      summary: 'Rename a category or change its description',
      params: CategoryParams,
      body: CategoryPatchInput,
      data: CategoryData,
    },
    async (c, { params, body }) => ({
      data: await kb.patchCategory(ctx(c), params.kb_id, params.category_id, body),
    }),
  );
  operation(
    app,
    {
      method: 'delete',
      tag,
      path: `${base}/:kb_id/categories/:category_id`,
      operationId: 'deleteCategory',
      summary: 'Delete a category (its documents stay, uncategorised)',
      params: CategoryParams,
      data: DeleteData,
    },
    async (c, { params }) => ({ data: await kb.deleteCategory(ctx(c), params.kb_id, params.category_id) }),
  );

  // ---------------------------------------------------------------- documents
  operation(
    app,
    {
      method: 'post',
      tag,
      path: `${base}/:kb_id/documents`,
      operationId: 'ingestDocument',
      summary: 'Add a document; it is split into topics by a task (202 with task_id)',
      description:
        'JSON (`content.text` of type text or html, or a file in `content.base64`), or multipart/form-data ' +
        'with `file` (.md, .txt, .html, .docx, .pdf), optional `title` and `category_id`.',
      params: KbParams,
      body: DocIngestInput,
      form: documentForm,
      data: DocIngestData,
      statuses: [202],
    },
    async (c, { params, body }) => ({
      data: await kb.ingestDocument(ctx(c), params.kb_id, body),
      status: 202,
    }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id/documents`,
      operationId: 'listDocuments',
      summary: "A knowledge base's documents, newest first, optionally of one category",
      params: KbParams,
      query: DocListQuery,
      data: DocListData,
    },
    async (c, { params, query }) => ({ data: await kb.listDocuments(ctx(c), params.kb_id, query) }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id/documents/:doc_id`,
      operationId: 'getDocument',
      summary: 'One document',
      params: DocParams,
      data: DocData,
    },
    async (c, { params }) => ({ data: await kb.getDocument(ctx(c), params.kb_id, params.doc_id) }),
  );
  operation(
    app,
    {
      method: 'patch',
      tag,
      path: `${base}/:kb_id/documents/:doc_id`,
      operationId: 'updateDocument',
      summary: "Change a document's title or category",
      params: DocParams,
      body: DocPatchInput,
      data: DocPatchData,
    },
    async (c, { params, body }) => ({
      data: await kb.patchDocument(ctx(c), params.kb_id, params.doc_id, body),
    }),
  );
  operation(
    app,
    {
      method: 'put',
      tag,
      path: `${base}/:kb_id/documents/:doc_id`,
      operationId: 'replaceDocument',
      summary: "Replace a document's content; its topics are rebuilt by a task (202 with task_id)",
      description: 'The same bodies as adding a document (JSON or multipart/form-data with `file`).',
      params: DocParams,
      body: DocIngestInput,
      form: documentForm,
      data: DocIngestData,
      statuses: [202],
    },
    async (c, { params, body }) => ({
      data: await kb.replaceDocument(ctx(c), params.kb_id, params.doc_id, body),
      status: 202,
    }),
  );
  operation(
    app,
    {
      method: 'delete',
      tag,
      path: `${base}/:kb_id/documents/:doc_id`,
      operationId: 'deleteDocument',
      summary: 'Delete a document and its topics',
      params: DocParams,
      data: DocDeleteData,
    },
    async (c, { params }) => ({ data: await kb.deleteDocument(ctx(c), params.kb_id, params.doc_id) }),
  );

  // ---------------------------------------------------------------- topics and tags
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id/documents/:doc_id/topics`,
      operationId: 'listDocumentTopics',
      summary: "A document's topic tree in document order (include=content for bodies)",
      params: DocParams,
      query: TopicListQuery,
      data: TopicListData,
    },
    async (c, { params, query }) => ({
      data: await kb.listDocTopics(ctx(c), params.kb_id, params.doc_id, query.include.includes('content')),
    }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id/documents/:doc_id/topics/:topic_id`,
      operationId: 'getTopic',
      summary: 'One topic with its content, place in the tree and tags',
      params: TopicParams,
      data: TopicDetailData,
    },
    async (c, { params }) => ({
      data: await kb.getTopic(ctx(c), params.kb_id, params.doc_id, params.topic_id),
    }),
  );
  operation(
    app,
    {
      method: 'post',
      tag,
      path: `${base}/:kb_id/documents/:doc_id/topics/:topic_id/tag/replace`,
      operationId: 'replaceTopicTags',
      summary: "Replace a topic's tag set (compare-and-set on version)",
      params: TopicParams,
      body: TagReplaceInput,
      data: TagReplaceData,
    },
    async (c, { params, body }) => ({
      data: await kb.replaceTags(ctx(c), params.kb_id, params.doc_id, params.topic_id, body),
    }),
  );
  operation(
    app,
    {
      method: 'get',
      tag,
      path: `${base}/:kb_id/topics`,
      operationId: 'listTopicsByTag',
      summary: "A knowledge base's topics carrying any of the tags, a page at a time",
      params: KbParams,
      query: TopicFilterQuery,
      data: TopicFilterListData,
    },
    async (c, { params, query }) => ({ data: await kb.listTopicsByTag(ctx(c), params.kb_id, query) }),
  );
  operation(
    app,
    {
      method: 'post',
      tag,
      path: `${base}/:kb_id/tags`,
      operationId: 'relatedTagUsage',
      summary: 'How many documents of the knowledge base use each of the tags',
      params: KbParams,
      body: TagUsageInput,
      data: TagUsageData,
    },
    async (c, { params, body }) => ({ data: await kb.tagUsage(ctx(c), params.kb_id, body.tag_ids) }),
  );
  operation(
    app,
    {
      method: 'post',
      tag,
      path: `${base}/:kb_id/search`,
      operationId: 'searchKnowledgeBase',
      summary: 'Search the topics of a knowledge base (keyword, vector or hybrid)',
      params: KbParams,
      body: KbSearchInput,
      data: KbSearchData,
    },
    async (c, { params, body }) => ({ data: await kb.search(ctx(c), params.kb_id, body) }),
  );
}
