import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** An S3-compatible bucket on loopback (s3rver), with the settings that point engram at it. */
export interface TestBucket {
  endpoint: string;
  /** ENGRAM_S3_* settings for engram. */
  env: Record<string, string>;
  /** A client of the bucket, to look at what engram stored. */
  client: S3Client;
  close(): Promise<void>;
}

export async function startBucket(bucket: string): Promise<TestBucket> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const creds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: creds });
  return {
    endpoint,
    env: {
      ENGRAM_S3_BUCKET: bucket,
      ENGRAM_S3_ENDPOINT: endpoint,
      ENGRAM_S3_REGION: 'us-east-1',
      ENGRAM_S3_FORCE_PATH_STYLE: 'true',
      ENGRAM_S3_ACCESS_KEY_ID: creds.accessKeyId,
      ENGRAM_S3_SECRET_ACCESS_KEY: creds.secretAccessKey,
    },
    client,
    close: async () => {
      client.destroy();
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
