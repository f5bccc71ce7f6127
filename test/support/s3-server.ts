import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver');

/** s3rver's built-in credentials. */
export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The AWS SDK variables a gateway needs to reach it. */
  env: Record<string, string>;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on loopback, with one bucket, in a temporary directory. */
export async function startS3Server(bucket = 'videos'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const env = { ...S3RVER_CREDENTIALS, AWS_ENDPOINT_URL_S3: endpoint };
  const client = new S3Client({ endpoint, forcePathStyle: true, region: env.AWS_REGION, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    endpoint,
    bucket,
    env,
    async keys() {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (answer.Contents ?? []).map((entry) => entry.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
