import type { Hono } from 'hono';
import {
  WikiDocParams,
  WikiDocument,
  WikiReplaceData,
  WikiReplaceInput,
} from '../../contract/v1-knowledge.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { operation } from './operation.js';

/**
 * The self-hosted v1 knowledge wiki, for v1 keys: one document of the tenant's knowledge
 * bases by its id, and its synchronous replace from a multipart upload.
 */
export function v1KnowledgeRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: { get(k: 'principal'): { tenantId: string } }) => ({
    tenantId: c.get('principal').tenantId,
  });
  const tag = 'Legacy v1 (self-hosted)';
  const path = '/api/v1/knowledge/documents/:doc_id';
  operation(
    app,
    {
      method: 'get',
      tag,
      path,
      operationId: 'v1GetKnowledgeDocument',
      summary: 'A knowledge document with its topics (v1 knowledge wiki)',
      params: WikiDocParams,
      data: WikiDocument,
    },
    async (c, { params }) => ({ data: await engram.kb.wikiDocument(ctx(c), params.doc_id) }),
  );
  operation(
    app,
    {
      method: 'put',
      tag,
      path,
      operationId: 'v1ReplaceKnowledgeDocument',
      summary: 'Replace a knowledge document from a file (v1 knowledge wiki)',
      description:
        'multipart/form-data: file (required), title, category_id, source_type, app_id, project_id. ' +
        'The document is split into topics before the answer; if anything fails the previous document stays.',
      params: WikiDocParams,
      body: WikiReplaceInput,
      form: wikiForm,
      data: WikiReplaceData,
    },
    async (c, { params, body }) => ({
      data: await engram.kb.replaceWikiDocument(ctx(c), params.doc_id, {
        file: { name: body.file.name, bytes: Buffer.from(body.file.base64, 'base64') },
        title: body.title,
        sourceType: body.source_type,
        categoryId: body.category_id,
      }),
    }),
  );
}

/** The multipart form as the JSON body it stands for (the file's bytes in base64). */
async function wikiForm(form: FormData): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of form.entries())
    out[key] =
      typeof value === 'string'
        ? value
        : {
            name: value.name || 'document',
            base64: Buffer.from(await value.arrayBuffer()).toString('base64'),
          };
  return out;
}
