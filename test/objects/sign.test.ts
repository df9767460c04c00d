import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { T0, user } from '../helpers/messages.js';
import { componentErrors } from '../helpers/upstream.js';

interface Signed {
  objectKey: string;
  objectSignedInfo: { url: string; fields: Record<string, string>; maxSize: number };
}

/** POSTs a file to a presigned upload the way an S3 client does: the fields, then the file. */
async function upload(info: Signed['objectSignedInfo'], bytes: string, name = 'f.txt', fields = info.fields) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([bytes], { type: 'text/plain' }), name);
  const res = await fetch(info.url, { method: 'POST', body: form });
  return { status: res.status, body: await res.text() };
}

describe.each(DRIVERS)('object/sign and local uploads [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const sign = (body: unknown, k = key, path = '/api/v2/object/sign') =>
    s.call('POST', path, { key: k, body });
  const signOne = async (fileName: string, fileType = 'file') => {
    const r = await sign({ objectList: [{ fileId: 'f1', fileName, fileType }] });
    return r.body.result.data.objectList[0] as Signed;
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
  });
  afterAll(() => s.close());

  it('signs uploads in the hosted envelope; an uploaded text file becomes message content', async () => {
    const r = await sign({
      objectList: [
        { fileId: 'notes', fileName: 'garden notes.md', fileType: 'file' },
        { fileId: 'pic', fileName: 'tomatoes.png', fileType: 'image' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 0, error: 'OK', request_id: expect.any(String) });
    expect(componentErrors('SignEnvelope', r.body)).toEqual([]);
    const [notes, pic] = r.body.result.data.objectList as (Signed & { fileId: string })[];
    expect(notes).toMatchObject({ fileId: 'notes', fileName: 'garden notes.md', fileType: 'file' });
    expect(notes!.objectKey).toMatch(/^file\/[0-9a-f]{24}\.md$/);
    expect(notes!.objectSignedInfo.maxSize).toBe(100 * 1024 * 1024);
    expect(pic!.objectSignedInfo.maxSize).toBe(10 * 1024 * 1024);
    expect(notes!.objectSignedInfo.url).toBe(`${s.url}/api/v2/objects`);

    const up = await upload(
      notes!.objectSignedInfo,
      'The heirloom tomatoes need staking before the courgettes flower.',
    );
    expect(up.status).toBe(204);
    expect((await upload(pic!.objectSignedInfo, 'not really a png', 'tomatoes.png')).status).toBe(204);

    const add = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'garden',
        messages: [
          {
            ...user('mira', '', T0),
            content: [
              { type: 'text', text: 'Here are my notes and a photo' },
              { type: 'doc', uri: notes!.objectKey },
              { type: 'image', uri: pic!.objectKey },
            ],
          },
        ],
      },
    });
    expect(add.status).toBe(200);
    const found = await s.call('POST', '/api/v2/memory/search', {
      key,
      body: { user_id: 'mira', query: 'heirloom tomatoes staking', method: 'keyword' },
    });
    const text = JSON.stringify(found.body.data.unprocessed_messages);
    expect(text).toContain('heirloom tomatoes need staking');
    expect(text).toContain('[image: tomatoes.png]');
  });

  it('refuses forged, expired and oversized uploads, and keeps nothing of them', async () => {
    const signed = await signOne('a.txt');
    const forged = { ...signed.objectSignedInfo.fields, max_size: String(10 ** 12) };
    expect((await upload(signed.objectSignedInfo, 'x', 'a.txt', forged)).status).toBe(403);
    const otherKey = { ...signed.objectSignedInfo.fields, key: 'file/000000000000000000000000.txt' };
    expect((await upload(signed.objectSignedInfo, 'x', 'a.txt', otherKey)).status).toBe(403);

    const store = s.engram.objects.store;
    const origin = s.url;
    const expired = await store.presign({
      tenantId: 'tenant-a',
      key: signed.objectKey,
      maxSize: 100,
      expiresAt: Date.now() - 1000,
      origin,
    });
    const late = await upload({ ...expired, maxSize: 100 }, 'x');
    expect(late.status).toBe(403);
    expect(late.body).toContain('expired');
    const small = await store.presign({
      tenantId: 'tenant-a',
      key: signed.objectKey,
      maxSize: 10,
      expiresAt: Date.now() + 60_000,
      origin,
    });
    const big = await upload({ ...small, maxSize: 10 }, 'eleven byte');
    expect(big.status).toBe(413);
    expect(await store.read('tenant-a', signed.objectKey, 100)).toBeUndefined();
    const noFile = await fetch(signed.objectSignedInfo.url, {
      method: 'POST',
      body: new URLSearchParams(signed.objectSignedInfo.fields),
    });
    expect(noFile.status).toBe(415);

    // a message naming an object that was never uploaded, or never signed, is refused whole
    for (const uri of [signed.objectKey, 'file/ffffffffffffffffffffffff.txt']) {
      const add = await s.call('POST', '/api/v2/memory/add', {
        key,
        body: { session_id: 'bad', messages: [{ ...user('mira', '', T0), content: [{ type: 'doc', uri }] }] },
      });
      expect(add.status).toBe(422);
    }
    const stored = await s.engram.db.query(
      "SELECT 1 FROM messages WHERE tenant_id = 'tenant-a' AND session_id = 'bad'",
    );
    expect(stored).toEqual([]);
  });

  it('reports bad sign requests with the hosted status codes', async () => {
    const item = (i: number) => ({ fileId: `f${i}`, fileName: `f${i}.txt`, fileType: 'file' });
    const cases: [unknown, number][] = [
      [{}, 2018],
      [{ objectList: [] }, 2018],
      [{ objectList: [{ fileId: 'a', fileName: 'a.txt' }] }, 2018],
      [{ objectList: Array.from({ length: 51 }, (_, i) => item(i)) }, 1007],
      [{ objectList: [item(1), item(1)] }, 1009],
      [{ objectList: [{ ...item(1), fileType: 'audio' }] }, 1002],
      ['{"objectList": [', 20003],
      [{ objectList: [{ ...item(1), fileName: 'a/b.txt' }] }, 2018],
    ];
    for (const [body, status] of cases) {
      const r = await sign(body);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(status);
      expect(r.body.error).not.toBe('OK');
    }
    expect((await s.call('POST', '/api/v2/object/sign', { body: { objectList: [item(1)] } })).status).toBe(
      401,
    );
  });

  it('answers the v1 alias for v1 keys only', async () => {
    const v1 = await s.key('tenant-a', 'v1');
    const body = { objectList: [{ fileId: 'x', fileName: 'x.txt', fileType: 'file' }] };
    const r = await sign(body, v1, '/api/v1/object/sign');
    expect(r.body.status).toBe(0);
    expect((await sign(body, key, '/api/v1/object/sign')).status).toBe(403);
    expect((await sign(body, v1)).status).toBe(403);
  });
});
