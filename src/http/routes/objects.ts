import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Context, Hono } from 'hono';
import { SignEnvelope, SignRequest, SignResponse } from '../../contract/objects.js';
import { validate } from '../../contract/validate.js';
import { EngramError } from '../../core/errors.js';
import { LOCAL_UPLOAD_PATH } from '../../core/ports.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { describeOperation } from './operation.js';

/**
 * POST /api/v2/object/sign and its v1 alias answer the hosted service's envelope:
 * `status` 0 and `error` "OK" with `result.data` on success; HTTP 200 with a non-zero
 * `status` for a request it cannot sign (2018 invalid parameters with the message in
 * `result.data`, 20003 a body that is not JSON, 1007 more than 50 objects, 1009 a
 * duplicate fileId, 1002 an unknown fileType).
 */
export function objectRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const sign = async (c: Context<HttpEnv>) => {
    const request_id = c.get('requestId');
    const fail = (status: number, error: string, data: string | null = null) =>
      c.json({ status, error, request_id, result: { data } });
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      return fail(20003, 'request body is not valid JSON');
    }
    let req: SignRequest;
    try {
      req = validate(SignRequest, raw);
    } catch (err) {
      if (!(err instanceof EngramError)) throw err;
      const list = (raw as { objectList?: unknown })?.objectList;
      if (Array.isArray(list) && list.length > 50) return fail(1007, 'objectList holds more than 50 objects');
      const dup = err.issues.find((i) => i.msg.startsWith('duplicate fileId'));
      if (dup) return fail(1009, dup.msg);
      // a fileType that is there but not one of the three (a missing one is a 2018)
      const at = (loc: (string | number)[]) =>
        loc.slice(1).reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], raw);
      if (err.issues.some((i) => i.loc.at(-1) === 'fileType' && at(i.loc) !== undefined))
        return fail(1002, 'fileType must be image, video or file');
      return fail(2018, 'parameter validation failed', err.message);
    }
    const p = c.get('principal');
    const data = await engram.objects.sign({ tenantId: p.tenantId, keyId: p.keyId }, req, origin(c));
    return c.json({ status: 0, error: 'OK', request_id, result: { data } });
  };
  for (const [path, operationId] of [
    ['/api/v2/object/sign', 'signObjects'],
    ['/api/v1/object/sign', 'v1SignObjects'],
  ] as const) {
    describeOperation({
      method: 'post',
      path,
      operationId,
      tag: 'Storage',
      summary: 'Presign uploads of files (images, documents, video) for message content',
      description:
        'POST each file to its objectSignedInfo.url with the given fields (the file last), then name ' +
        'its objectKey as a content item `uri` on /api/v2/memory/add.',
      body: SignRequest,
      data: SignResponse,
      envelope: SignEnvelope,
    });
    app.post(path, sign);
  }
}

/** Where clients reach this server, from the request (behind a proxy: X-Forwarded-*). */
function origin(c: Context): string {
  const url = new URL(c.req.url);
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.replace(':', '');
  const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || c.req.header('host') || url.host;
  return `${proto}://${host}`;
}

/**
 * The local store's upload: a multipart form with the signed fields first and the file
 * last (as for an S3 presigned POST), streamed to disk; 204 when stored. Needs no API key:
 * the signature is the permission. Mounted before the body limit and bearer auth.
 */
export function localUploadRoute(app: Hono<HttpEnv>, engram: Engram): void {
  app.post(LOCAL_UPLOAD_PATH, async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data/i.test(type) || !c.req.raw.body)
      throw new EngramError(
        'UnsupportedMediaType',
        'upload the file as multipart/form-data, the signed fields first',
      );
    const fields: Record<string, string> = {};
    const form = busboy({
      headers: { 'content-type': type },
      limits: { files: 1, fields: 50, fieldSize: 8192 },
    });
    const stored = new Promise<void>((resolve, reject) => {
      let sawFile = false;
      form.on('field', (name, value) => {
        fields[name] = value;
      });
      form.on('file', (_name, file, info) => {
        sawFile = true;
        engram.objects.receive(fields, file, info.mimeType).then(resolve, (err) => {
          file.resume();
          reject(err);
        });
      });
      form.on('error', reject);
      form.on('close', () => {
        if (!sawFile) reject(new EngramError('InvalidParameter', 'the form holds no file'));
      });
    });
    Readable.fromWeb(c.req.raw.body as never).pipe(form);
    await stored;
    return c.body(null, 204);
  });
}
