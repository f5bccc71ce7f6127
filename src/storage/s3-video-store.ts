import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import type { ByteRange, VideoStore } from './video-store';

/** Parts of a multipart upload: few parts in memory at once (queueSize x partSize). */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * The store shared by several instances: an S3 bucket (or any S3-compatible server), configured by
 * the AWS SDK's own variables (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_ENDPOINT_URL_S3). A video is a multipart upload: the object appears only when the upload
 * completes, and a failed one is aborted, so a partial object is never served.
 */
export class S3VideoStore implements VideoStore {
  readonly kind = 's3' as const;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  static create(bucket: string, prefix: string, forcePathStyle: boolean): S3VideoStore {
    return new S3VideoStore(new S3Client({ forcePathStyle }), bucket, prefix);
  }

  async write(key: string, body: Readable, contentType: string): Promise<number> {
    let bytes = 0;
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyOf(key), Body: body, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    const done = upload.done();
    // A source that fails (length, content or size check) must abort the upload, not complete it short.
    const failed = new Promise<never>((_, reject) => body.once('error', reject));
    try {
      await Promise.race([done, failed]);
    } catch (error) {
      // lib-storage aborts the multipart upload (deleting its parts) once the parts in flight settled: wait for that, so nothing is left.
      await done.catch(() => undefined);
      throw error;
    }
    return bytes;
  }

  async writeSmall(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), Body: bytes, ContentType: contentType }));
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
    );
    if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
    return answer.Body;
  }

  async size(key: string): Promise<number> {
    const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    if (answer.ContentLength === undefined) throw new Error('S3 answered HeadObject without a length');
    return answer.ContentLength;
  }

  /** A presigned GET for a few minutes: ffmpeg seeks in it with ranged requests. */
  locate(key: string): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }), { expiresIn: 300 });
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  private keyOf(key: string): string {
    return this.prefix ? `${this.prefix}/${key}` : key;
  }
}
