import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { upstreamErrors } from '../helpers/upstream.js';
import { GARDEN, ingest } from './fixture.js';

/** Knowledge bases, categories and documents over HTTP; every success body validates upstream. */
describe.each(DRIVERS)('knowledge bases, categories, documents [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let other: string;
  const KB = '/api/v2/knowledge_bases';
  const ok = async (
    method: string,
    path: string,
    template: string,
    status: number,
    body?: unknown,
    k = key,
  ) => {
    const r = await s.call(method, path, { key: k, ...(body === undefined ? {} : { body }) });
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(upstreamErrors(method, template, status, r.body)).toEqual([]);
    return r.body.data;
  };
  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    other = await s.key('tenant-b');
  });
  afterAll(() => s.close());

  it('creates, reads, lists, renames and deletes a knowledge base', async () => {
    const kb = await ok('POST', KB, '/api/v2/knowledge_bases', 201, { name: 'Garden', owner_id: 'ops' });
    expect(kb).toMatchObject({ name: 'Garden', description: '', owner_id: 'ops', document_count: 0 });
    expect(kb.id).toMatch(/^kb_[0-9a-f]{24}$/);
    const got = await ok('GET', `${KB}/${kb.id}`, '/api/v2/knowledge_bases/{kb_id}', 200);
    expect(got).toEqual(kb);
    const patched = await ok('PATCH', `${KB}/${kb.id}`, '/api/v2/knowledge_bases/{kb_id}', 200, {
      description: 'Allotment notes',
    });
    expect(patched).toMatchObject({ name: 'Garden', description: 'Allotment notes' });
    const list = await ok('GET', `${KB}?owner_id=ops&page_size=5`, '/api/v2/knowledge_bases', 200);
    expect(list.knowledge_bases.map((k: any) => k.id)).toContain(kb.id);
    expect(list.total).toBeGreaterThanOrEqual(1);
    const gone = await ok('DELETE', `${KB}/${kb.id}`, '/api/v2/knowledge_bases/{kb_id}', 200);
    expect(gone).toEqual({ id: kb.id, deleted: true });
    expect((await s.call('GET', `${KB}/${kb.id}`, { key })).status).toBe(404);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const before = (await s.call('GET', KB, { key })).body.data.total;
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 3 }]) {
      const r = await s.call('POST', KB, { key, body });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('InvalidParameter');
    }
    expect((await s.call('GET', `${KB}?page_size=101`, { key })).status).toBe(422);
    expect((await s.call('GET', KB, { key })).body.data.total).toBe(before);
  });

  it('keeps categories per knowledge base and documents by category, paged', async () => {
    const kb = (await s.call('POST', KB, { key, body: { name: 'Cats' } })).body.data.id;
    const cat = await ok(
      'POST',
      `${KB}/${kb}/categories`,
      '/api/v2/knowledge_bases/{kb_id}/categories',
      201,
      {
        name: 'Compost',
      },
    );
    expect(cat).toMatchObject({ name: 'Compost', document_count: 0, scope: 'kb', editable: true });
    const renamed = await ok(
      'PATCH',
      `${KB}/${kb}/categories/${cat.id}`,
      '/api/v2/knowledge_bases/{kb_id}/categories/{category_id}',
      200,
      { name: 'Composting' },
    );
    expect(renamed.name).toBe('Composting');
    const d1 = await ingest(s, key, kb, 'Heap care', GARDEN, { category_id: cat.id });
    await ingest(s, key, kb, 'Loose notes', 'Water the beans at dusk.');
    const cats = await ok('GET', `${KB}/${kb}/categories`, '/api/v2/knowledge_bases/{kb_id}/categories', 200);
    expect(cats.categories).toEqual([expect.objectContaining({ id: cat.id, document_count: 1 })]);
    const inCat = await ok(
      'GET',
      `${KB}/${kb}/documents?category_id=${cat.id}`,
      '/api/v2/knowledge_bases/{kb_id}/documents',
      200,
    );
    expect(inCat.documents.map((d: any) => d.id)).toEqual([d1]);
    expect(inCat.documents[0]).toMatchObject({
      category_id: cat.id,
      category_name: 'Composting',
      status: 'ready',
    });
    const page = await ok(
      'GET',
      `${KB}/${kb}/documents?page=2&page_size=1`,
      '/api/v2/knowledge_bases/{kb_id}/documents',
      200,
    );
    expect(page.total).toBe(2);
    expect(page.documents).toHaveLength(1);
    // a category of another knowledge base is not accepted
    const kb2 = (await s.call('POST', KB, { key, body: { name: 'Elsewhere' } })).body.data.id;
    const wrong = await s.call('POST', `${KB}/${kb2}/documents`, {
      key,
      body: { title: 'x', content: { type: 'text', text: 'y' }, category_id: cat.id },
    });
    expect(wrong.status).toBe(404);
    // deleting the category keeps its documents, uncategorised
    await ok(
      'DELETE',
      `${KB}/${kb}/categories/${cat.id}`,
      '/api/v2/knowledge_bases/{kb_id}/categories/{category_id}',
      200,
    );
    const doc = await ok(
      'GET',
      `${KB}/${kb}/documents/${d1}`,
      '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}',
      200,
    );
    expect(doc.category_id).toBe('');
  });

  it('patches and deletes a document with its topics', async () => {
    const kb = (await s.call('POST', KB, { key, body: { name: 'Docs' } })).body.data.id;
    const doc = await ingest(s, key, kb, 'Heap care', GARDEN);
    const patched = await ok(
      'PATCH',
      `${KB}/${kb}/documents/${doc}`,
      '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}',
      200,
      {
        title: 'Compost heap care',
      },
    );
    expect(patched.updated_fields).toEqual(['title']);
    const got = await ok(
      'GET',
      `${KB}/${kb}/documents/${doc}`,
      '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}',
      200,
    );
    expect(got).toMatchObject({
      title: 'Compost heap care',
      topic_count: expect.any(Number),
      source_type: 'markdown',
    });
    expect(got.topic_count).toBeGreaterThan(0);
    const del = await ok(
      'DELETE',
      `${KB}/${kb}/documents/${doc}`,
      '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}',
      200,
    );
    expect(del).toEqual({ id: doc, deleted: true, deleted_topics: got.topic_count + 1 });
    expect((await s.call('GET', `${KB}/${kb}/documents/${doc}/topics`, { key })).status).toBe(404);
  });

  it('confines every route to the caller tenant', async () => {
    const kb = (await s.call('POST', KB, { key, body: { name: 'Private' } })).body.data.id;
    const doc = await ingest(s, key, kb, 'Heap care', GARDEN);
    const list = (await s.call('GET', KB, { key: other })).body.data;
    expect(list.knowledge_bases.map((k: any) => k.id)).not.toContain(kb);
    for (const [method, path, body] of [
      ['GET', `${KB}/${kb}`],
      ['PATCH', `${KB}/${kb}`, { name: 'mine' }],
      ['DELETE', `${KB}/${kb}`],
      ['GET', `${KB}/${kb}/categories`],
      ['POST', `${KB}/${kb}/categories`, { name: 'c' }],
      ['GET', `${KB}/${kb}/documents`],
      ['POST', `${KB}/${kb}/documents`, { title: 't', content: { type: 'text', text: 'x' } }],
      ['GET', `${KB}/${kb}/documents/${doc}`],
      ['PUT', `${KB}/${kb}/documents/${doc}`, { title: 't', content: { type: 'text', text: 'x' } }],
      ['DELETE', `${KB}/${kb}/documents/${doc}`],
      ['GET', `${KB}/${kb}/documents/${doc}/topics`],
      ['GET', `${KB}/${kb}/topics?tag_ids=a`],
      ['POST', `${KB}/${kb}/tags`, { tag_ids: ['a'] }],
      ['POST', `${KB}/${kb}/search`, { query: 'compost' }],
    ] as [string, string, unknown?][]) {
      const r = await s.call(method, path, { key: other, ...(body ? { body } : {}) });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await s.call('GET', `${KB}/${kb}/documents/${doc}`, { key })).status).toBe(200);
  });
});
