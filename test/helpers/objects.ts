import type { TestServer } from './engram.js';

/** Signs one file with object/sign and uploads it to the presigned POST, as an S3 client does; answers its object key. */
export async function signAndUpload(s: TestServer, key: string, fileName: string, bytes: Uint8Array) {
  const r = await s.call('POST', '/api/v2/object/sign', {
    key,
    body: { objectList: [{ fileId: 'f', fileName, fileType: 'file' }] },
  });
  const o = r.body.result.data.objectList[0];
  const form = new FormData();
  for (const [k, v] of Object.entries(o.objectSignedInfo.fields as Record<string, string>)) form.append(k, v);
  form.append('file', new Blob([bytes]), fileName);
  const up = await fetch(o.objectSignedInfo.url, { method: 'POST', body: form });
  if (up.status >= 300) throw new Error(`upload: ${up.status} ${await up.text()}`);
  return o.objectKey as string;
}
