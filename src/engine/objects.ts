import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_SIZE, type SignRequest, type SignResponse } from '../contract/objects.js';
import type { Db } from '../core/db.js';
import { EngramError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { ObjectStore } from '../core/ports.js';
import type { Ctx } from './memory/deps.js';

/** How long a signed upload URL stays valid. */
export const SIGN_TTL_MS = 15 * 60_000;
/** The most text one uploaded file contributes to a message. */
export const MAX_OBJECT_TEXT = 100_000;
const TEXT_EXT = new Set([
  '.txt',
  '.md',
  '.markdown',
  '.csv',
  '.tsv',
  '.json',
  '.html',
  '.htm',
  '.xml',
  '.log',
  '.eml',
  '.yaml',
  '.yml',
]);

export interface ObjectRow {
  object_key: string;
  file_name: string;
  file_type: string;
}

/**
 * Signed uploads: sign records each object and answers a presigned POST per file; the
 * key it answers is what a message content item names in `uri`. Uploaded text files
 * become the item's text when the message is added.
 */
export class ObjectService {
  constructor(
    private readonly db: Db,
    readonly store: ObjectStore,
  ) {}

  async sign(ctx: Ctx, req: SignRequest, origin: string, now = Date.now()): Promise<SignResponse> {
    const expiresAt = now + SIGN_TTL_MS;
    const objectList: SignResponse['objectList'] = [];
    for (const o of req.objectList) {
      const ext = extname(o.fileName).toLowerCase();
      const key = `${o.fileType}/${newId()}${/^\.[a-z0-9]{1,10}$/.test(ext) ? ext : ''}`;
      const maxSize = MAX_SIZE[o.fileType];
      await this.db.query(
        `INSERT INTO objects (tenant_id, object_key, file_id, file_name, file_type, max_size)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [ctx.tenantId, key, o.fileId, o.fileName, o.fileType, maxSize],
      );
      const signed = await this.store.presign({ tenantId: ctx.tenantId, key, maxSize, expiresAt, origin });
      objectList.push({ ...o, objectKey: key, objectSignedInfo: { ...signed, maxSize } });
    }
    return { objectList };
  }

  /** Whether this server takes uploads itself (the local store). */
  get takesUploads(): boolean {
    return this.store.receive !== undefined;
  }

  /** An upload to the local store: the signed form fields, then the file's bytes. */
  async receive(fields: Record<string, string>, file: Readable, contentType: string): Promise<void> {
    if (!this.store.receive) throw new EngramError('NotFound', 'uploads go to the configured object store');
    const { tenantId, key, size } = await this.store.receive(fields, file);
    await this.db.query(
      `UPDATE objects SET size = $3, content_type = $4, uploaded_at = now() WHERE tenant_id = $1 AND object_key = $2`,
      [tenantId, key, size, contentType],
    );
  }

  /**
   * The text an uploaded object gives a message: the file's text for a text file, its name
   * otherwise (images and video are not parsed). 422 when the key was never signed for
   * this tenant or nothing was uploaded under it.
   */
  async textOf(tenantId: string, key: string, param = 'uri'): Promise<string> {
    const isText = (o: ObjectRow) =>
      o.file_type === 'file' && TEXT_EXT.has(extname(o.file_name).toLowerCase());
    const { bytes, row } = await this.fileOf(tenantId, key, param, (o) =>
      isText(o) ? MAX_OBJECT_TEXT * 4 : 1,
    );
    if (!isText(row)) return `[${row.file_type}: ${row.file_name}]`;
    return bytes.toString('utf8').replaceAll('\0', '').slice(0, MAX_OBJECT_TEXT);
  }

  /**
   * An uploaded object's bytes (at most maxBytes of it) and what was signed for it. 422 at
   * `param` when the key was never signed for this tenant or nothing was uploaded under it.
   */
  async fileOf(
    tenantId: string,
    key: string,
    param: string,
    maxBytes: (o: ObjectRow) => number,
  ): Promise<{ bytes: Buffer; row: ObjectRow }> {
    const [row] = await this.db.query<ObjectRow & Record<string, unknown>>(
      'SELECT object_key, file_name, file_type FROM objects WHERE tenant_id = $1 AND object_key = $2',
      [tenantId, key],
    );
    if (!row)
      throw new EngramError(
        'InvalidParameter',
        `${param}: no signed object ${key}; sign it with /api/v2/object/sign first`,
        { param },
      );
    const bytes = await this.store.read(tenantId, key, maxBytes(row));
    if (!bytes)
      throw new EngramError('InvalidParameter', `${param}: object ${key} was signed but never uploaded`, {
        param,
      });
    return { bytes, row };
  }
}
