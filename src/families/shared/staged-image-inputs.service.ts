import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../common/errors/app-error';
import { HeldValues } from '../../common/runtime/held-values';
import { fetchPublicUrl, TooManyRedirectsError } from '../../common/urls/public-fetch';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { describeTransportError } from '../../upstream/provider-text';
import { sniffImageType } from '../../common/urls/image-type';
import { notPublicHostMessage } from '../../common/urls/url-guard';

/** How an image-to-video task refers to its image in `task.request` (small: never the bytes). */
export interface StagedImageRef {
  source: 'url' | 'data_uri' | 'file';
  /** Only for `url`: lets a resubmit after a restart fetch the image again. */
  url?: string;
  sha256: string;
  mime: string;
  size: number;
}

export interface StagedImage {
  bytes: Buffer;
  mime: string;
  filename: string;
}

export type ImageInput = { url: string } | { dataUri: string } | { file: { buffer: Buffer; originalname?: string } };

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Gets a client's image (URL, data URI or uploaded file) ready for a provider's image upload (family
 * A uploads it, Veo inlines it; each family module has its own instance).
 * `prepare` runs before anything is charged: it fetches or decodes the image, refuses private
 * hosts, oversized or non-image content with a 400, and keeps the bytes in memory until the
 * submit is over. The adapter's `load` then uses them, or fetches the URL again after a restart.
 */
@Injectable()
export class StagedImageInputs {
  /** The provider takes images under 20 MB; replaceable in tests. */
  limits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 3 };
  private readonly staged = new HeldValues<StagedImage>();

  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prepare(input: ImageInput, field: string): Promise<{ ref: StagedImageRef; release: () => void }> {
    const image = await this.read(input, field);
    const sha256 = createHash('sha256').update(image.bytes).digest('hex');
    const source: StagedImageRef['source'] = 'url' in input ? 'url' : 'dataUri' in input ? 'data_uri' : 'file';
    const ref: StagedImageRef = {
      source,
      ...('url' in input ? { url: input.url } : {}),
      sha256,
      mime: image.mime,
      size: image.bytes.length,
    };
    return { ref, release: this.staged.hold(sha256, image) };
  }

  /** The image for an upload; throws UpstreamError `invalid_input` when it can no longer be had. */
  async load(ref: StagedImageRef): Promise<StagedImage> {
    const staged = this.staged.get(ref.sha256);
    if (staged) return staged;
    if (!ref.url) throw new UpstreamError('invalid_input', 'the image is no longer available, send it again');
    return this.read({ url: ref.url }, 'image').catch((error) => {
      throw new UpstreamError('invalid_input', error instanceof AppError ? error.message : 'image URL could not be fetched');
    });
  }

  private async read(input: ImageInput, field: string): Promise<StagedImage> {
    const bytes =
      'url' in input
        ? await this.fetch(input.url, field)
        : 'dataUri' in input
          ? this.decodeDataUri(input.dataUri, field)
          : input.file.buffer;
    if (bytes.length > this.limits.maxBytes) throw tooLarge(field, this.limits.maxBytes);
    const mime = sniffImageType(bytes);
    if (!mime) throw AppError.invalid(`${field} must be a PNG, JPEG or WEBP image`, field);
    return { bytes, mime, filename: `image.${EXTENSIONS[mime]}` };
  }

  private async fetch(url: string, field: string): Promise<Buffer> {
    let response;
    try {
      response = await fetchPublicUrl(
        this.http.axiosRef,
        { url, method: 'GET', responseType: 'stream', timeout: this.limits.timeoutMs, headers: { Accept: 'image/*' } },
        { field, ...mediaSourcePolicy(this.config), maxRedirects: this.limits.maxRedirects },
      );
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof TooManyRedirectsError) throw AppError.invalid(`${field} URL redirects too often`, field);
      if ((error as { code?: string })?.code === 'ENOTPUBLIC') throw notPublic(field);
      throw AppError.invalid(`${field} URL could not be fetched (${describeTransportError(error)})`, field);
    }
    const stream = response.data;
    if (response.status !== 200) {
      stream.destroy();
      throw AppError.invalid(`${field} URL answered HTTP ${response.status}; it must be publicly accessible and not expired`, field);
    }
    if (Number(response.headers['content-length'] ?? 0) > this.limits.maxBytes) {
      stream.destroy();
      throw tooLarge(field, this.limits.maxBytes);
    }
    return this.readCapped(stream, field);
  }

  /** Reads a body but stops as soon as it passes the cap, and within the timeout. */
  private readCapped(stream: Readable, field: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => fail(AppError.invalid(`${field} URL could not be fetched (timeout)`, field)), this.limits.timeoutMs);
      const fail = (error: AppError) => {
        clearTimeout(timer);
        stream.destroy();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.limits.maxBytes) return fail(tooLarge(field, this.limits.maxBytes));
        chunks.push(chunk);
      });
      stream.on('error', () => fail(AppError.invalid(`${field} URL could not be fetched (connection lost)`, field)));
      stream.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks));
      });
    });
  }

  private decodeDataUri(dataUri: string, field: string): Buffer {
    const match = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,]*)*);base64,(.*)$/s.exec(dataUri);
    const payload = match?.[3].replace(/\s+/g, '');
    if (!payload || !/^[A-Za-z0-9+/]+={0,2}$/.test(payload)) {
      throw AppError.invalid(`${field} must be an http(s) URL or a base64 data URI (data:image/png;base64,...)`, field);
    }
    if ((payload.length * 3) / 4 > this.limits.maxBytes + 3) throw tooLarge(field, this.limits.maxBytes);
    return Buffer.from(payload, 'base64');
  }
}

const notPublic = (field: string) => AppError.invalid(notPublicHostMessage(field), field);
const tooLarge = (field: string, maxBytes: number) =>
  AppError.invalid(`${field} is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB`, field);
