import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AppError } from '../../common/app-error';
import { publicOnlyLookup } from '../../common/public-fetch';
import { assertPublicHttpUrl, notPublicHostMessage } from '../../common/url-guard';
import { isTrustedHost, mediaSourcePolicy } from '../../common/media-source-policy';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { MediaToCheck } from './beta-body.parser';
import { SNIFF_BYTES, sniffFormat, totalSizeOf } from './media-probe';

const PROBE_TIMEOUT_MS = 5_000;
const MB = 1024 * 1024;
const LIMITS = {
  image: { maxBytes: 10 * MB, formats: ['jpeg', 'png', 'webp'], describe: 'a JPEG, PNG or WEBP image' },
  video: { maxBytes: 100 * MB, formats: ['mp4'], describe: 'an MP4 or MOV video' },
};
/** Connection errors that mean the URL cannot work for the provider either. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND']);
const GONE_STATUSES = new Set([401, 403, 404, 410]);

/**
 * Media checks before any charge: every URL must be public http(s) (private hosts only with
 * MEDIA_ALLOW_PRIVATE_HOSTS; the gateway's own PUBLIC_BASE_URL host is trusted), and a ranged read of its first bytes must show an accepted format
 * within the size limit. What cannot be decided cheaply (a redirect, a timeout, a 5xx, an unknown
 * size) is left to the provider, whose refusal fails the task with a refund.
 */
@Injectable()
export class BetaMediaCheckService {
  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async checkAll(media: MediaToCheck[]): Promise<void> {
    for (const element of media) await assertPublicHttpUrl(element.url, element.field, mediaSourcePolicy(this.config));
    await Promise.all(media.map((element) => this.probe(element)));
  }

  private async probe(element: MediaToCheck): Promise<void> {
    const limits = element.type === 'video' ? LIMITS.video : LIMITS.image;
    const unreachable = (why: string) =>
      AppError.invalid(`${element.field} is not reachable (${why}): the URL must be publicly accessible and not expired`, element.field);
    let status: number;
    let headers: Record<string, unknown>;
    let head: Buffer;
    const guarded = !this.config.mediaAllowPrivateHosts && !isTrustedHost(element.url, mediaSourcePolicy(this.config));
    try {
      const response = await this.http.axiosRef.get<Readable>(element.url, {
        responseType: 'stream',
        headers: { Range: `bytes=0-${SNIFF_BYTES - 1}` },
        timeout: PROBE_TIMEOUT_MS,
        maxRedirects: 0,
        validateStatus: () => true,
        // As for family A images: the connection itself refuses names that now resolve to private addresses (DNS rebinding).
        ...(guarded ? { lookup: publicOnlyLookup } : {}),
      });
      status = response.status;
      headers = response.headers;
      head = status === 200 || status === 206 ? await readHead(response.data, SNIFF_BYTES) : Buffer.alloc(0);
      response.data.destroy();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOTPUBLIC') throw notPublic(element.field);
      if (code && UNREACHABLE_CODES.has(code)) throw unreachable(code);
      return;
    }
    if (GONE_STATUSES.has(status)) throw unreachable(`HTTP ${status}`);
    if (status === 416) throw AppError.invalid(`${element.field} points to an empty file`, element.field);
    if (status !== 200 && status !== 206) return;
    const format = sniffFormat(head);
    if (!limits.formats.includes(format))
      throw AppError.invalid(`${element.field} must be ${limits.describe} (media type ${element.type})`, element.field);
    const size = totalSizeOf(status, headers);
    if (size !== null && size > limits.maxBytes) {
      throw AppError.invalid(
        `${element.field} is too large: ${(size / MB).toFixed(1)} MB, at most ${limits.maxBytes / MB} MB`,
        element.field,
      );
    }
  }
}

const notPublic = (field: string) => AppError.invalid(notPublicHostMessage(field), field);

/** The first `bytes` of a stream (fewer if it ends sooner), bounded in time. */
function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      resolve(Buffer.concat(chunks).subarray(0, bytes));
    };
    const timer = setTimeout(done, PROBE_TIMEOUT_MS);
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) done();
    });
    stream.on('end', done);
    stream.on('error', done);
  });
}
