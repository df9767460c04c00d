import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { embeddingsResponse, FakeOpenAI } from '../helpers/fake-openai.js';
import { upstreamErrors } from '../helpers/upstream.js';
import { expectV1Error } from '../helpers/v1.js';
import { createKb, ingest } from './fixture.js';

/**
 * The v1 knowledge wiki: GET / PUT /api/v1/knowledge/documents/{doc_id} on the
 * knowledge-base engine. Failures are injected through real seams: a file part the
 * parser cannot read, and the embeddings service (the scripted OpenAI-compatible server)
 * refusing a request whose text carries a marker.
 */
const MARKER = 'QUARANTINE-7731';
const vector = (text: string) => {
  const v = [1, 0, 0, 0];
  for (let i = 0; i < text.length; i++) v[i % 4]! += text.charCodeAt(i) % 7;
  return v;
};

const NOTES = `# Watering

Water the seedlings at dawn, never at noon.

# Pruning

Prune the roses after the first frost has passed.`;

describe.each(DRIVERS)('v1 knowledge wiki [%s]', (driver) => {
  let s: TestServer;
  let fake: FakeOpenAI;
  let v1: string;
  let v2: string;
  let kb: string;
  let doc: string;
  const wiki = (id: string) => `/api/v1/knowledge/documents/${id}`;
  const put = async (
    id: string,
    file: { name: string; bytes: Uint8Array },
    fields: Record<string, string> = {},
    key = v1,
  ) => {
    const form = new FormData();
    form.set('file', new File([file.bytes], file.name));
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const res = await fetch(s.url + wiki(id), {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const stored = (key: string) => s.engram.objects.store.read('tenant-w', key, 1 << 20);

  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    fake.handle('embeddings', (body: any) => {
      const input = body.input as string[];
      if (input.some((t) => t.includes(MARKER)))
        return { status: 400, body: { error: { message: 'refused' } } };
      return { json: embeddingsResponse(body.model, input.map(vector)) };
    });
    s = await startTestServer(driver, {
      ENGRAM_EMBEDDING_BASE_URL: fake.baseURL,
      ENGRAM_EMBEDDING_DIMENSIONS: '4',
    });
    v1 = await s.key('tenant-w', 'v1');
    v2 = await s.key('tenant-w', 'v2');
    kb = await createKb(s, v2, 'Garden');
    doc = await ingest(s, v2, kb, 'Garden notes', 'Compost needs greens and browns.\n\nTurn it weekly.');
  });
  afterAll(async () => {
    await s.close();
    await fake.stop();
  });

  it('GET answers the v1 knowledge document; bad, unknown and v2-key requests are refused', async () => {
    const r = await s.call('GET', wiki(doc), { key: v1 });
    expect(r.status).toBe(200);
    expect(r.body.request_id).toMatch(/./);
    expect(r.body.data).toMatchObject({
      doc_id: doc,
      category_id: '',
      title: 'Garden notes',
      source_type: 'markdown',
      original_file_path: '',
    });
    expect(typeof r.body.data.summary).toBe('string');
    expect(Date.parse(r.body.data.created_at)).not.toBeNaN();
    expect(r.body.data.topics.length).toBeGreaterThan(0);
    expect(r.body.data.topics[0]).toEqual({
      topic_id: expect.stringMatching(/^t_/),
      topic_name: expect.any(String),
      topic_path: expect.any(String),
      depth: expect.any(Number),
      summary: expect.any(String),
    });
    const bad = await s.call('GET', wiki('d_XYZ'), { key: v1 });
    expect(bad.status).toBe(422);
    expectV1Error(bad.body, 'InvalidParameter', wiki('d_XYZ'));
    const unknown = await s.call('GET', wiki(`d_${'a'.repeat(24)}`), { key: v1 });
    expect(unknown.status).toBe(404);
    expectV1Error(unknown.body, 'NotFound', wiki(`d_${'a'.repeat(24)}`));
    expect((await s.call('GET', wiki(doc), { key: v2 })).status).toBe(403);
    const other = await s.key('tenant-x', 'v1');
    expect((await s.call('GET', wiki(doc), { key: other })).status).toBe(404);
  });

  it('PUT replaces the document from a multipart file and keeps the file and its Markdown', async () => {
    const cat = await s.call('POST', `/api/v2/knowledge_bases/${kb}/categories`, {
      key: v2,
      body: { name: 'Care' },
    });
    const categoryId = cat.body.data.id as string;
    const bytes = new TextEncoder().encode(NOTES);
    const r = await put(doc, { name: 'notes.md', bytes }, { title: 'Plant care', category_id: categoryId });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      doc_id: doc,
      category_id: categoryId,
      topic_count: 2,
      source_name: 'notes.md',
      md_path: `knowledge/${doc}/${doc}.md`,
      original_file_path: `knowledge/${doc}/notes.md`,
    });
    expect((await stored(r.body.data.original_file_path))?.toString()).toBe(NOTES);
    expect((await stored(r.body.data.md_path))?.toString()).toContain('Prune the roses');
    const got = (await s.call('GET', wiki(doc), { key: v1 })).body.data;
    expect(got).toMatchObject({ title: 'Plant care', category_id: categoryId, source_name: 'notes.md' });
    expect(got.topics.map((t: any) => t.topic_name)).toEqual(['Watering', 'Pruning']);
    expect(got.topics[1].topic_path).toBe('Pruning');
    // the v2 view is the same document
    const v2doc = await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${doc}`, { key: v2 });
    expect(v2doc.body.data).toMatchObject({ title: 'Plant care', topic_count: 2, status: 'ready' });
  });

  it('a file part the parser cannot read fails the replace, and the previous document and files are restored', async () => {
    const before = (await s.call('GET', wiki(doc), { key: v1 })).body.data;
    // same name as the stored file: the upload overwrites it before the parser fails
    const crafted = new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0xfd, 0x0a]);
    const r = await put(doc, { name: 'notes.md', bytes: crafted }, { title: 'Broken' });
    expect(r.status).toBe(422);
    expectV1Error(r.body, 'InvalidParameter', wiki(doc));
    expect((await s.call('GET', wiki(doc), { key: v1 })).body.data).toEqual(before);
    expect((await stored(`knowledge/${doc}/notes.md`))?.toString()).toBe(NOTES);
    expect((await stored(`knowledge/${doc}/${doc}.md`))?.toString()).toContain('Prune the roses');
  });

  it('a failure after the file and its Markdown were written (embeddings refused) restores both', async () => {
    const before = (await s.call('GET', wiki(doc), { key: v1 })).body.data;
    const text = `# Harvest\n\nPick the beans while young. ${MARKER}`;
    const r = await put(doc, { name: 'harvest.md', bytes: new TextEncoder().encode(text) });
    expect(r.status).toBe(503);
    expectV1Error(r.body, 'ServiceUnavailable', wiki(doc));
    expect((await s.call('GET', wiki(doc), { key: v1 })).body.data).toEqual(before);
    expect(await stored(`knowledge/${doc}/harvest.md`)).toBeUndefined();
    expect((await stored(`knowledge/${doc}/notes.md`))?.toString()).toBe(NOTES);
    expect((await stored(`knowledge/${doc}/${doc}.md`))?.toString()).toContain('Prune the roses');
    expect((await stored(`knowledge/${doc}/${doc}.md`))?.toString()).not.toContain(MARKER);
    const search = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, {
      key: v2,
      body: { query: 'roses frost', method: 'keyword' },
    });
    expect(search.body.data.hits.map((h: any) => h.name)).toContain('Pruning');
  });

  it('deleting the document (v2) removes its wiki files; an uploaded object it came from stays', async () => {
    const other = await ingest(s, v2, kb, 'Shed', 'The shed key hangs behind the door.');
    const r = await put(other, {
      name: 'shed.md',
      bytes: new TextEncoder().encode('# Shed\n\nOil the hinges.'),
    });
    expect(r.status).toBe(200);
    expect(await stored(r.body.data.original_file_path)).toBeDefined();
    const del = await s.call('DELETE', `/api/v2/knowledge_bases/${kb}/documents/${other}`, { key: v2 });
    expect(del.status).toBe(200);
    expect(
      upstreamErrors('DELETE', '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}', 200, del.body),
    ).toEqual([]);
    expect(await stored(r.body.data.original_file_path)).toBeUndefined();
    expect(await stored(r.body.data.md_path)).toBeUndefined();
    expect((await s.call('GET', wiki(other), { key: v1 })).status).toBe(404);
  });

  it('refuses bad input with nothing changed: no file, an unknown kind, an unknown category', async () => {
    const before = (await s.call('GET', wiki(doc), { key: v1 })).body.data;
    const form = new FormData();
    form.set('title', 'No file');
    const none = await fetch(s.url + wiki(doc), {
      method: 'PUT',
      headers: { authorization: `Bearer ${v1}` },
      body: form,
    });
    expect(none.status).toBe(422);
    const exe = await put(doc, { name: 'tool.exe', bytes: new Uint8Array([1, 2, 3]) });
    expect(exe.status).toBe(422);
    expect(exe.body.message).toContain('.exe');
    const cat = await put(
      doc,
      { name: 'notes.md', bytes: new TextEncoder().encode(NOTES) },
      { category_id: 'c_nope' },
    );
    expect(cat.status).toBe(404);
    const app = await put(
      doc,
      { name: 'notes.md', bytes: new TextEncoder().encode(NOTES) },
      { app_id: 'bad app' },
    );
    expect(app.status).toBe(422);
    expect((await s.call('GET', wiki(doc), { key: v1 })).body.data).toEqual(before);
  });
});
