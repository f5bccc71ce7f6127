import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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
  /** The file s3rver keeps an object's bytes in: a test may replace them in place (a 1 GiB upload takes a minute, a sparse file no time). */
  objectPath(key: string): string;
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
    objectPath(key) {
      return server.store.getResourcePath(bucket, key, 'object') as string;
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

/** Every file under a directory, relative to it (`a/b.mp4`), sorted; none when it is not there. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, sub));
    } catch {
      return;
    }
    for (const name of names) {
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(join(dir, rel)).isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/**
 * A video store for a gateway, of either kind: a directory of the test's own (`file:`), or a bucket
 * on a real S3-compatible server (s3rver), addressed path-style.
 */
export interface TestVideoStore {
  kind: 'file' | 's3';
  /** The S3 server behind an `s3` store. */
  s3: TestS3Server | undefined;
  /** The directory of a `file` store. */
  dir: string | undefined;
  /** What a gateway needs to use it: VIDEO_STORE, and for S3 path-style addressing and the AWS SDK's variables. */
  env: Record<string, string>;
  /** Every object in the store: its keys (folder markers left out), or the files under its directory, temporary ones included. */
  objects(): Promise<string[]>;
  /** Stops the server or removes the directory, and puts back the environment `inProcess` changed (after the gateway is gone). */
  close(): Promise<void>;
}

/**
 * Starts a store of `kind`; an S3 store's objects go under `prefix` (`s3://videos/gw`). With
 * `inProcess` (a gateway in this process, not a child), the AWS SDK's variables are set in
 * process.env, where the SDK reads them, as in production.
 */
export async function startVideoStore(
  kind: 'file' | 's3',
  options: { prefix?: string; inProcess?: boolean } = {},
): Promise<TestVideoStore> {
  if (kind === 'file') {
    const dir = mkdtempSync(join(tmpdir(), 'gw-videos-'));
    return {
      kind,
      s3: undefined,
      dir,
      env: { VIDEO_STORE: `file:${dir}` },
      objects: async () => filesUnder(dir),
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const s3 = await startS3Server();
  const saved = Object.fromEntries(Object.keys(s3.env).map((name) => [name, process.env[name]]));
  if (options.inProcess) Object.assign(process.env, s3.env);
  return {
    kind,
    s3,
    dir: undefined,
    env: { ...s3.env, VIDEO_STORE: `s3://${s3.bucket}${options.prefix ? `/${options.prefix}` : ''}`, VIDEO_STORE_PATH_STYLE: 'true' },
    objects: async () => (await s3.keys()).filter((name) => !name.endsWith('/')),
    async close() {
      await s3.close();
      if (!options.inProcess) return;
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
