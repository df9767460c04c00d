import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { ObjectStore } from '../core/ports.js';
import { tenantPath } from './object-keys.js';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server's URL (MinIO, Ceph, R2, ...); AWS itself when absent. */
  endpoint?: string | undefined;
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Static credentials; the SDK's default chain (environment, profile, instance role) when absent. */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/**
 * Objects in an S3-compatible bucket through the official AWS SDK. Uploads go straight
 * to the bucket with a presigned POST (the SDK's presigner) whose policy pins the key and
 * caps the size (`content-length-range`) until it expires; engram reads, writes and
 * removes objects with GetObject / PutObject / DeleteObject. Keys are kept under a prefix
 * per tenant, as in the local store.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly o: S3StoreOptions) {
    this.client = new S3Client({
      region: o.region,
      forcePathStyle: o.forcePathStyle,
      ...(o.endpoint ? { endpoint: o.endpoint } : {}),
      ...(o.accessKeyId && o.secretAccessKey
        ? { credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } }
        : {}),
    });
  }

  async presign(p: { tenantId: string; key: string; maxSize: number; expiresAt: number }) {
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.o.bucket,
      Key: tenantPath(p.tenantId, p.key).join('/'),
      Conditions: [['content-length-range', 0, p.maxSize]],
      Expires: Math.max(1, Math.floor((p.expiresAt - Date.now()) / 1000)),
    });
    return { url, fields };
  }

  async read(tenantId: string, key: string, maxBytes: number): Promise<Buffer | undefined> {
    try {
      const r = await this.client.send(
        new GetObjectCommand({ ...this.at(tenantId, key), Range: `bytes=0-${Math.max(0, maxBytes - 1)}` }),
      );
      return Buffer.from((await r.Body?.transformToByteArray()) ?? []).subarray(0, maxBytes);
    } catch (err) {
      const status = (err as S3ServiceException).$metadata?.httpStatusCode;
      if (status === 404) return undefined;
      // a range past the end of an empty object
      if (status === 416) return Buffer.alloc(0);
      throw err;
    }
  }

  async write(tenantId: string, key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ ...this.at(tenantId, key), Body: bytes }));
  }

  async remove(tenantId: string, key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand(this.at(tenantId, key)));
  }

  close(): void {
    this.client.destroy();
  }

  private at(tenantId: string, key: string) {
    return { Bucket: this.o.bucket, Key: tenantPath(tenantId, key).join('/') };
  }
}
