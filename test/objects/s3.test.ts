import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { T0, user } from '../helpers/messages.js';
import { signAndUpload } from '../helpers/objects.js';
import { startBucket, type TestBucket } from '../helpers/s3.js';
import { componentErrors } from '../helpers/upstream.js';
import { createKb, ingest, waitTask } from '../kb/fixture.js';

/**
 * Object storage in an S3-compatible bucket (s3rver on loopback) when ENGRAM_S3_BUCKET is
 * set: object/sign answers the AWS SDK's presigned POST to the bucket, uploads go there,
 * and engram reads (message content, knowledge sources) and writes (the knowledge wiki's
 * files) the bucket, never the data dir.
 */
const BUCKET = 'engram-test';

describe.each(DRIVERS)('S3-compatible object storage [%s]', (driver) => {
  let bucket: TestBucket;
  let endpoint: string;
  let s: TestServer;
  let key: string;
  let client: S3Client;

  beforeAll(async () => {
    bucket = await startBucket(BUCKET);
    ({ endpoint, client } = bucket);
    s = await startTestServer(driver, bucket.env);
    key = await s.key('tenant-s3');
  });
  afterAll(async () => {
    await s?.close();
    await bucket?.close();
  });

  const keysInBucket = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!);

  it('signs presigned POSTs to the bucket; an uploaded file becomes message content', async () => {
    const r = await s.call('POST', '/api/v2/object/sign', {
      key,
      body: { objectList: [{ fileId: 'n', fileName: 'notes.txt', fileType: 'file' }] },
    });
    expect(r.status).toBe(200);
    expect(componentErrors('SignEnvelope', r.body)).toEqual([]);
    const info = r.body.result.data.objectList[0].objectSignedInfo;
    expect(info.url.startsWith(endpoint)).toBe(true);
    expect(info.fields).toMatchObject({ Policy: expect.any(String), 'X-Amz-Signature': expect.any(String) });
    // the bucket enforces the signed policy (s3rver itself does not check POST policies): it
    // pins bucket and key, caps the size at the file limit and expires with the signature
    const policy = JSON.parse(Buffer.from(info.fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 0, 100 * 1024 * 1024],
        { bucket: BUCKET },
        { key: info.fields.key },
      ]),
    );
    expect(info.fields.key.endsWith(r.body.result.data.objectList[0].objectKey)).toBe(true);
    const ttl = Date.parse(policy.expiration) - Date.now();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const objectKey = await signAndUpload(
      s,
      key,
      'notes.txt',
      new TextEncoder().encode('The allotment gate code changed to the plum tree number.'),
    );
    expect((await keysInBucket()).some((k) => k.endsWith(objectKey))).toBe(true);
    const add = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'allotment',
        messages: [{ ...user('ana', '', T0), content: [{ type: 'doc', uri: objectKey }] }],
      },
    });
    expect(add.status).toBe(200);
    const found = await s.call('POST', '/api/v2/memory/search', {
      key,
      body: { user_id: 'ana', query: 'allotment gate code', method: 'keyword' },
    });
    expect(JSON.stringify(found.body.data.unprocessed_messages)).toContain('plum tree');
    // with a bucket the local upload route is not mounted: the path is an ordinary keyed one
    expect((await fetch(`${s.url}/api/v2/objects`, { method: 'POST', body: new FormData() })).status).toBe(
      401,
    );
    expect(existsSync(join(s.engram.config.dataDir, 'objects'))).toBe(false);
  });

  it('a knowledge document ingests from an object in the bucket', async () => {
    const kb = await createKb(s, key, 'Allotment');
    const objectKey = await signAndUpload(
      s,
      key,
      'beds.md',
      new TextEncoder().encode('# Beds\n\nBed four takes the garlic this autumn.'),
    );
    const r = await s.call('POST', `/api/v2/knowledge_bases/${kb}/documents`, {
      key,
      body: { title: 'Beds', content: { type: 'doc', uri: objectKey } },
    });
    expect(r.status).toBe(202);
    expect((await waitTask(s, key, r.body.data.task_id)).status).toBe('success');
    const doc = await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${r.body.data.id}`, { key });
    expect(doc.body.data).toMatchObject({ source_name: 'beds.md', topic_count: 1 });
  });

  it('the knowledge wiki keeps its files in the bucket and restores them when a replace fails', async () => {
    const v1 = await s.key('tenant-s3', 'v1');
    const kb = await createKb(s, key, 'Sheds');
    const doc = await ingest(s, key, kb, 'Shed', 'The shed key hangs behind the door.');
    const put = async (name: string, bytes: Uint8Array) => {
      const form = new FormData();
      form.set('file', new File([bytes], name));
      const res = await fetch(`${s.url}/api/v1/knowledge/documents/${doc}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${v1}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const text = '# Tools\n\nThe spade and the fork hang on the left wall.';
    const ok = await put('tools.md', new TextEncoder().encode(text));
    expect(ok.status).toBe(200);
    const inBucket = await keysInBucket();
    expect(inBucket.some((k) => k.endsWith(ok.body.data.original_file_path))).toBe(true);
    expect(inBucket.some((k) => k.endsWith(ok.body.data.md_path))).toBe(true);
    const before = (await s.call('GET', `/api/v1/knowledge/documents/${doc}`, { key: v1 })).body.data;
    const bad = await put('tools.md', new Uint8Array([0x23, 0xff, 0xfe]));
    expect(bad.status).toBe(422);
    expect((await s.call('GET', `/api/v1/knowledge/documents/${doc}`, { key: v1 })).body.data).toEqual(
      before,
    );
    const kept = await s.engram.objects.store.read('tenant-s3', ok.body.data.original_file_path, 1 << 20);
    expect(kept?.toString()).toBe(text);
    expect(readdirSync(s.engram.config.dataDir)).not.toContain('objects');
  });
});
