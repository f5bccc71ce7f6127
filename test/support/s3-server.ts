import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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
  /** Multipart uploads neither completed nor aborted (their parts take space in the bucket). */
  openUploads(): string[];
  /** AbortMultipartUpload requests answered so far. */
  readonly abortedUploads: number;
  /** DeleteObject requests received so far (answered or held). */
  readonly deletesSeen: number;
  /** Answers the next `count` DeleteObject requests, then holds every later one unanswered (a store that hangs mid-prune); null answers all again. */
  holdDeletesAfter(count: number | null): void;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on loopback, with one bucket, in a temporary directory. */
export async function startS3Server(bucket = 'videos'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const uploads = join(directory, bucket, '._S3rver_uploads');
  let aborted = 0;
  let deletes = 0;
  let answerUpTo: number | null = null;
  let held: Array<() => void> = [];
  const releaseHeld = () => {
    for (const release of held) release();
    held = [];
  };
  // s3rver answers AbortMultipartUpload with 405: this does what S3 does, deleting the upload and its parts.
  server.middleware.unshift(async (ctx: { method: string; query: Record<string, unknown>; status: number }, next: () => Promise<void>) => {
    if (ctx.method !== 'DELETE' || typeof ctx.query.uploadId !== 'string') return next();
    rmSync(join(uploads, basename(ctx.query.uploadId)), { recursive: true, force: true });
    aborted++;
    ctx.status = 204;
  });
  server.middleware.unshift(async (ctx: { method: string; query: Record<string, unknown>; path: string }, next: () => Promise<void>) => {
    if (ctx.method !== 'DELETE' || ctx.query.uploadId !== undefined) return next();
    deletes++;
    if (answerUpTo !== null && deletes > answerUpTo) await new Promise<void>((resolve) => held.push(resolve));
    return next();
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const env = { ...S3RVER_CREDENTIALS, AWS_ENDPOINT_URL_S3: endpoint };
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: env.AWS_REGION,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    bucket,
    env,
    async keys() {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (answer.Contents ?? []).map((entry) => entry.Key!).sort();
    },
    get abortedUploads() {
      return aborted;
    },
    get deletesSeen() {
      return deletes;
    },
    holdDeletesAfter(count) {
      answerUpTo = count === null ? null : deletes + count;
      if (count === null) releaseHeld();
    },
    openUploads() {
      try {
        return readdirSync(uploads);
      } catch {
        return [];
      }
    },
    async close() {
      // Held requests are dropped, not answered: their bucket is about to go.
      held = [];
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
