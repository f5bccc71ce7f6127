import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { AppError } from '../common/errors/app-error';
import { fetchPublicUrl, TooManyRedirectsError } from '../common/urls/public-fetch';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { describeTransportError } from '../upstream/provider-text';
import { FeedRefused } from './feed-document';
import { feedFilePath, signatureUrlOf } from './feed-url';

/** A read is bounded: a feed slower or larger than this is refused, and changes nothing. */
export const FEED_TIMEOUT_MS = 10_000;
export const FEED_MAX_BYTES = 5 * 1024 * 1024;
/** A signature file is 88 characters of base64 (a newline or two allowed). */
const SIGNATURE_MAX_BYTES = 1024;

/** What a read found: the document (with its ETag, or a digest of a file's bytes), or that it is what the ETag named. */
export type FeedRead = { kind: 'not-modified' } | { kind: 'document'; bytes: Buffer; etag: string | null };

/**
 * Reads the feed's document and its signature: over https (http and private hosts only with
 * MEDIA_ALLOW_PRIVATE_HOSTS, each redirect checked as a channel URL is), or from a `file:` path;
 * within FEED_TIMEOUT_MS and FEED_MAX_BYTES. Throws FeedRefused saying why in the operator's words.
 */
@Injectable()
export class FeedReader {
  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The document, or `not-modified` when it still has the ETag of the last one applied (`If-None-Match`). */
  async read(url: string, etag: string | null): Promise<FeedRead> {
    if (url.startsWith('file:')) {
      const bytes = await this.readFile(feedFilePath(url), FEED_MAX_BYTES, 'the document');
      const digest = `"sha256-${createHash('sha256').update(bytes).digest('base64url')}"`;
      return digest === etag ? { kind: 'not-modified' } : { kind: 'document', bytes, etag: digest };
    }
    const response = await this.get(url, FEED_MAX_BYTES, 'the document', etag);
    if (response.status === 304) return { kind: 'not-modified' };
    const header = response.etag;
    return { kind: 'document', bytes: response.bytes, etag: header };
  }

  /** The text of `<url>.sig`. */
  async readSignature(url: string): Promise<string> {
    const at = signatureUrlOf(url);
    const bytes = url.startsWith('file:')
      ? await this.readFile(feedFilePath(at), SIGNATURE_MAX_BYTES, 'the signature')
      : (await this.get(at, SIGNATURE_MAX_BYTES, 'the signature', null)).bytes;
    return bytes.toString('utf8');
  }

  private async get(
    url: string,
    maxBytes: number,
    what: string,
    etag: string | null,
  ): Promise<{ status: number; bytes: Buffer; etag: string | null }> {
    const allowPrivate = this.config.mediaAllowPrivateHosts;
    if (!url.startsWith('https:') && !allowPrivate)
      throw new FeedRefused('CATALOG_FEED_URL must be https:// (http:// only with MEDIA_ALLOW_PRIVATE_HOSTS=true)');
    // A total bound: the socket timeout alone would let a server trickle a byte at a time for ever.
    const deadline = AbortSignal.timeout(FEED_TIMEOUT_MS);
    let response;
    try {
      response = await fetchPublicUrl<ArrayBuffer>(
        this.http.axiosRef,
        {
          url,
          method: 'GET',
          responseType: 'arraybuffer',
          timeout: FEED_TIMEOUT_MS,
          signal: deadline,
          maxContentLength: maxBytes,
          headers: { Accept: 'application/json', ...(etag ? { 'If-None-Match': etag } : {}) },
        },
        { field: 'CATALOG_FEED_URL', allowPrivate },
      );
    } catch (error) {
      if (error instanceof AppError) throw new FeedRefused(error.message);
      if (error instanceof TooManyRedirectsError) throw new FeedRefused(`${what} redirects too often`);
      const why = deadline.aborted ? 'timeout' : describeTransportError(error);
      if (why === 'response too large') throw new FeedRefused(`${what} is larger than ${maxBytes} bytes`);
      throw new FeedRefused(
        why === 'timeout' ? `${what} did not arrive within ${FEED_TIMEOUT_MS / 1000} s` : `${what} cannot be read (${why})`,
      );
    }
    if (response.status !== 200 && !(response.status === 304 && etag)) throw new FeedRefused(`${what} answered HTTP ${response.status}`);
    const header = response.headers.etag;
    return { status: response.status, bytes: Buffer.from(response.data ?? []), etag: typeof header === 'string' && header ? header : null };
  }

  private async readFile(path: string, maxBytes: number, what: string): Promise<Buffer> {
    let file;
    try {
      file = await open(path, 'r');
    } catch (error) {
      throw new FeedRefused(`${what} cannot be read (${(error as { code?: string }).code ?? 'error'})`);
    }
    try {
      // One byte past the cap tells a file that is too large without reading it all.
      const buffer = Buffer.alloc(maxBytes + 1);
      const { bytesRead } = await file.read(buffer, 0, maxBytes + 1, 0);
      if (bytesRead > maxBytes) throw new FeedRefused(`${what} is larger than ${maxBytes} bytes`);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }
}
