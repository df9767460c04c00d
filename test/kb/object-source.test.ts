import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { signAndUpload } from '../helpers/objects.js';
import { upstreamErrors } from '../helpers/upstream.js';
import { createKb, waitTask } from './fixture.js';

/** An uploaded object (object/sign, then the presigned POST) as a knowledge document's source. */
const GUIDE = `# Bread starter

Feed the starter with equal weights of flour and water every morning.

# Proofing

Let the dough proof overnight in the fridge for a sour crumb.`;

describe.each(DRIVERS)('uploaded objects as knowledge document sources [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let kb: string;
  const docs = () => `/api/v2/knowledge_bases/${kb}/documents`;

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-o');
    kb = await createKb(s, key, 'Kitchen');
  });
  afterAll(() => s.close());

  it('ingests a document from content.uri (the object key) and keeps the object as its file', async () => {
    const objectKey = await signAndUpload(s, key, 'bread.md', new TextEncoder().encode(GUIDE));
    const r = await s.call('POST', docs(), {
      key,
      body: { title: 'Bread', content: { type: 'doc', uri: objectKey } },
    });
    expect(r.status).toBe(202);
    expect(upstreamErrors('POST', '/api/v2/knowledge_bases/{kb_id}/documents', 202, r.body)).toEqual([]);
    expect((await waitTask(s, key, r.body.data.task_id)).status).toBe('success');
    const doc = await s.call('GET', `${docs()}/${r.body.data.id}`, { key });
    expect(doc.body.data).toMatchObject({ source_name: 'bread.md', source_type: 'markdown', topic_count: 2 });
    const topics = await s.call('GET', `${docs()}/${r.body.data.id}/topics`, { key });
    expect(topics.body.data.topics.map((t: any) => t.name)).toEqual(['Bread', 'Bread starter', 'Proofing']);
    const v1 = await s.key('tenant-o', 'v1');
    const wiki = await s.call('GET', `/api/v1/knowledge/documents/${r.body.data.id}`, { key: v1 });
    expect(wiki.body.data.original_file_path).toBe(objectKey);
  });

  it('replaces a document from another object (PUT)', async () => {
    const first = await signAndUpload(s, key, 'a.md', new TextEncoder().encode('# One\n\nThe first text.'));
    const r = await s.call('POST', docs(), {
      key,
      body: { title: 'A', content: { type: 'doc', uri: first } },
    });
    await waitTask(s, key, r.body.data.task_id);
    const second = await signAndUpload(
      s,
      key,
      'b.txt',
      new TextEncoder().encode('Plain notes about rye flour.'),
    );
    const p = await s.call('PUT', `${docs()}/${r.body.data.id}`, {
      key,
      body: { title: 'B', content: { type: 'text', uri: second } },
    });
    expect(p.status).toBe(202);
    expect(upstreamErrors('PUT', '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}', 202, p.body)).toEqual(
      [],
    );
    expect((await waitTask(s, key, p.body.data.task_id)).status).toBe('success');
    const doc = await s.call('GET', `${docs()}/${r.body.data.id}`, { key });
    expect(doc.body.data).toMatchObject({ title: 'B', source_name: 'b.txt', source_type: 'txt' });
    // the object the document came from before belongs to the uploader and stays
    expect(await s.engram.objects.store.read('tenant-o', first, 100)).toBeDefined();
  });

  it('refuses a key never signed, or signed and never uploaded, with 422 and stores nothing', async () => {
    const before = (await s.call('GET', docs(), { key })).body.data.total;
    const unknown = await s.call('POST', docs(), {
      key,
      body: { title: 'X', content: { type: 'doc', uri: 'file/000000000000000000000000.md' } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'InvalidParameter', param: 'content.uri' });
    const signed = await s.call('POST', '/api/v2/object/sign', {
      key,
      body: { objectList: [{ fileId: 'g', fileName: 'ghost.md', fileType: 'file' }] },
    });
    const ghost = signed.body.result.data.objectList[0].objectKey;
    const never = await s.call('POST', docs(), {
      key,
      body: { title: 'X', content: { type: 'doc', uri: ghost } },
    });
    expect(never.status).toBe(422);
    expect(never.body.message).toContain('never uploaded');
    const otherKey = await s.key('tenant-p');
    const otherKb = await createKb(s, otherKey, 'Elsewhere');
    const foreign = await signAndUpload(s, key, 'mine.md', new TextEncoder().encode('# Mine\n\nPrivate.'));
    const stolen = await s.call('POST', `/api/v2/knowledge_bases/${otherKb}/documents`, {
      key: otherKey,
      body: { title: 'X', content: { type: 'doc', uri: foreign } },
    });
    expect(stolen.status).toBe(422);
    expect((await s.call('GET', docs(), { key })).body.data.total).toBe(before);
  });
});
