import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../core/db.js';
import { EngramError } from '../core/errors.js';
import { LOCAL_UPLOAD_PATH, type ObjectStore } from '../core/ports.js';
import { tenantPath } from './object-keys.js';

/** What a local upload form carries besides the file. */
interface LocalUploadFields {
  key: string;
  tenant: string;
  expires: string;
  max_size: string;
  signature: string;
}

/**
 * Signed uploads kept under `<data dir>/objects`. A signature is an HMAC-SHA256, with a
 * random secret per tenant kept in the database (so every server process of a deployment
 * verifies alike), over the tenant, key, expiry and size limit; the upload route checks it,
 * the expiry and the size while streaming the file to disk.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';
  constructor(
    private readonly db: Db,
    private readonly dir: string,
  ) {}

  async presign(o: { tenantId: string; key: string; maxSize: number; expiresAt: number; origin: string }) {
    const fields = {
      key: o.key,
      tenant: o.tenantId,
      expires: String(o.expiresAt),
      max_size: String(o.maxSize),
    };
    const signature = sign(await this.secret(o.tenantId), fields);
    return { url: `${o.origin}${LOCAL_UPLOAD_PATH}`, fields: { ...fields, signature } };
  }

  /**
   * Checks the signed fields of an upload (403 when forged, expired or for another key);
   * then stores the file, which may not exceed the signed size (413, nothing kept).
   */
  async receive(fields: Record<string, string>, file: Readable, now = Date.now()) {
    const missing = ['key', 'tenant', 'expires', 'max_size', 'signature'].filter((k) => !fields[k]);
    if (missing.length)
      throw new EngramError('InvalidParameter', `the form lacks ${missing.join(', ')} before the file`);
    const f = fields as unknown as LocalUploadFields;
    const [row] = await this.db.query<{ secret: string }>(
      'SELECT secret FROM object_secrets WHERE tenant_id = $1',
      [f.tenant],
    );
    const want = row ? Buffer.from(sign(row.secret, f), 'hex') : Buffer.alloc(32);
    const got = Buffer.from(/^[0-9a-f]{64}$/.test(f.signature) ? f.signature : '', 'hex');
    if (!row || got.length !== want.length || !timingSafeEqual(got, want))
      throw new EngramError('Forbidden', 'the upload signature does not match its fields');
    if (!(Number(f.expires) > now))
      throw new EngramError('Forbidden', 'the upload URL has expired; sign again');
    const max = Number(f.max_size);
    const path = this.path(f.tenant, f.key);
    const part = await partOf(path);
    let size = 0;
    try {
      await pipeline(
        file,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > max)
              throw new EngramError('PayloadTooLarge', `the file exceeds its ${max} byte limit`);
            yield chunk;
          }
        },
        createWriteStream(part),
      );
      await rename(part, path);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
    return { tenantId: f.tenant, key: f.key, size };
  }

  async read(tenantId: string, key: string, maxBytes: number): Promise<Buffer | undefined> {
    const fh = await open(this.path(tenantId, key), 'r').catch(() => undefined);
    if (!fh) return undefined;
    try {
      const buf = Buffer.alloc(Math.min(maxBytes, (await fh.stat()).size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  async write(tenantId: string, key: string, bytes: Buffer): Promise<void> {
    const path = this.path(tenantId, key);
    const part = await partOf(path);
    try {
      await writeFile(part, bytes);
      await rename(part, path);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
  }

  async remove(tenantId: string, key: string): Promise<void> {
    await rm(this.path(tenantId, key), { force: true });
  }

  private path(tenantId: string, key: string): string {
    return join(this.dir, ...tenantPath(tenantId, key));
  }

  private async secret(tenantId: string): Promise<string> {
    await this.db.query(
      'INSERT INTO object_secrets (tenant_id, secret) VALUES ($1, $2) ON CONFLICT (tenant_id) DO NOTHING',
      [tenantId, randomBytes(32).toString('hex')],
    );
    const [row] = await this.db.query<{ secret: string }>(
      'SELECT secret FROM object_secrets WHERE tenant_id = $1',
      [tenantId],
    );
    return row!.secret;
  }
}

/** A temporary file beside path (its directory made), renamed over it once complete. */
async function partOf(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  return `${path}.${randomBytes(6).toString('hex')}.part`;
}

function sign(secret: string, f: Omit<LocalUploadFields, 'signature'>): string {
  return createHmac('sha256', secret)
    .update([f.tenant, f.key, f.expires, f.max_size].join('\n'))
    .digest('hex');
}
