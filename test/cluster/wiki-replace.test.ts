import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../helpers/cluster.js';
import { ADMIN_URL } from '../helpers/drivers.js';
import { embeddingsResponse, FakeOpenAI } from '../helpers/fake-openai.js';
import { startBucket, type TestBucket } from '../helpers/s3.js';

/**
 * Two `engram serve` processes on one PostgreSQL database and one S3-compatible bucket
 * (s3rver): replaces of one knowledge document sent to both at once run one after the
 * other, so the document ends as one of them with exactly that replace's files.
 *
 * The embeddings service (the scripted OpenAI-compatible server) holds the first replace
 * inside its work, after it wrote its files, until the other replace's text has been
 * embedded (or a few seconds went by): replaces that interleaved would finish the first
 * one last, over the files the second wrote.
 */
const BUCKET = 'engram-cluster';
const ALPHA = '# Alpha\n\nThe alpha greenhouse opens at six.';
const BRAVO = '# Bravo\n\nThe bravo greenhouse opens at nine.';

describe.skipIf(!ADMIN_URL)('replaces of one knowledge document on two nodes [postgres]', () => {
  let bucket: TestBucket;
  let client: S3Client;
  let fake: FakeOpenAI;
  let c: Cluster;
  let v1: string;
  let v2: string;
  let bravoEmbedded: () => void;
  const bravoSeen = new Promise<void>((resolve) => {
    bravoEmbedded = resolve;
  });

  beforeAll(async () => {
    bucket = await startBucket(BUCKET);
    client = bucket.client;
    fake = await new FakeOpenAI().start();
    fake.handle('embeddings', async (body: any) => {
      const input = body.input as string[];
      const vectors = input.map((t) => [t.length % 5, 1, t.includes('alpha') ? 1 : 0, 1]);
      if (input.some((t) => t.includes('bravo greenhouse'))) bravoEmbedded();
      else if (input.some((t) => t.includes('alpha greenhouse')))
        await Promise.race([
          bravoSeen.then(() => new Promise((r) => setTimeout(r, 1500))),
          new Promise((r) => setTimeout(r, 6000)),
        ]);
      return { json: embeddingsResponse(body.model, vectors) };
    });
    c = await startCluster(2, {
      ENGRAM_EMBEDDING_BASE_URL: fake.baseURL,
      ENGRAM_EMBEDDING_DIMENSIONS: '4',
      ...bucket.env,
    });
    v1 = await c.key('tenant-g', 'v1');
    v2 = await c.key('tenant-g', 'v2');
  }, 300_000);
  afterAll(async () => {
    await c?.close();
    await fake?.stop();
    await bucket?.close();
  });

  const put = async (node: number, docId: string, name: string, text: string) => {
    const form = new FormData();
    form.set('file', new File([new TextEncoder().encode(text)], name));
    const res = await fetch(`${c.nodes[node]!.url}/api/v1/knowledge/documents/${docId}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${v1}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const filesOf = async (docId: string) => {
    const keys = ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? [])
      .map((o) => o.Key!)
      .filter((k) => k.includes(`/knowledge/${docId}/`));
    const out: Record<string, string> = {};
    for (const key of keys) {
      const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      out[key.slice(key.indexOf(`knowledge/${docId}/`))] = await got.Body!.transformToString();
    }
    return out;
  };

  it('end as one document whose files are that replace’s, whatever node each went to', async () => {
    const kb = await c.call('POST', '/api/v2/knowledge_bases', v2, { name: 'Greenhouses' });
    expect(kb.status).toBe(201);
    const doc = await c.call('POST', `/api/v2/knowledge_bases/${kb.body.data.id}/documents`, v2, {
      title: 'Opening hours',
      content: { type: 'text', text: 'The greenhouses open in the morning.' },
    });
    expect(doc.status).toBe(202);
    const docId = doc.body.data.id as string;
    for (;;) {
      const t = await c.call('GET', `/api/v2/tasks/${doc.body.data.task_id}`, v2);
      if (t.body?.data?.status === 'success') break;
      expect(t.body?.data?.status).not.toBe('failed');
      await new Promise((r) => setTimeout(r, 100));
    }

    const alpha = put(0, docId, 'alpha.md', ALPHA);
    await new Promise((r) => setTimeout(r, 300)); // alpha first: its files are written
    const bravo = put(1, docId, 'bravo.md', BRAVO);
    const [a, b] = await Promise.all([alpha, bravo]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);

    const got = (await c.call('GET', `/api/v1/knowledge/documents/${docId}`, v1)).body.data;
    const winner = got.source_name === 'alpha.md' ? ALPHA : BRAVO;
    expect(['alpha.md', 'bravo.md']).toContain(got.source_name);
    expect(got.original_file_path).toBe(`knowledge/${docId}/${got.source_name}`);
    const files = await filesOf(docId);
    expect(Object.keys(files).sort()).toEqual(
      [`knowledge/${docId}/${docId}.md`, got.original_file_path].sort(),
    );
    expect(files[got.original_file_path]).toBe(winner);
    expect(files[`knowledge/${docId}/${docId}.md`]).toContain(winner.split('\n\n')[1]);
    const v2doc = await c.call('GET', `/api/v2/knowledge_bases/${kb.body.data.id}/documents/${docId}`, v2);
    expect(JSON.stringify(v2doc.body.data)).toContain(got.source_name);
  }, 300_000);
});
