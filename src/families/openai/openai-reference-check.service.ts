import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AppError } from '../../common/app-error';
import { sniffImageType } from '../../common/image-type';
import { mediaSourcePolicy } from '../../common/media-source-policy';
import { fetchPublicUrl, TooManyRedirectsError } from '../../common/public-fetch';
import { notPublicHostMessage } from '../../common/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

const PROBE_TIMEOUT_MS = 5_000;
/** Enough for every magic number sniffImageType knows. */
const SNIFF_BYTES = 64;
const GONE_STATUSES = new Set([401, 403, 404, 410]);
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND']);

/**
 * Family O's `input_reference` URL is a first-frame image the provider fetches. Before anything is
 * charged, a ranged read of its first bytes must show a JPEG, PNG or WebP (an HTML page, a 404 are
 * 400s naming the field). What cannot be decided cheaply (a timeout, a 5xx) is left to the provider,
 * whose refusal fails the task with a refund.
 */
@Injectable()
export class OpenAiReferenceCheck {
  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(url: string, field: string): Promise<void> {
    const notImage = (what: string) => AppError.invalid(`${field} must be a JPEG, PNG or WebP image (the URL answered ${what})`, field);
    let status: number;
    let contentType: string;
    let head: Buffer;
    try {
      const response = await fetchPublicUrl<Readable>(
        this.http.axiosRef,
        { url, method: 'GET', responseType: 'stream', headers: { Range: `bytes=0-${SNIFF_BYTES - 1}` }, timeout: PROBE_TIMEOUT_MS },
        { ...mediaSourcePolicy(this.config), field },
      );
      status = response.status;
      contentType = String(response.headers['content-type'] ?? '')
        .split(';')[0]
        .trim();
      head = status === 200 || status === 206 ? await readHead(response.data, SNIFF_BYTES) : Buffer.alloc(0);
      response.data.destroy();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof TooManyRedirectsError) throw AppError.invalid(`${field} redirects too often`, field);
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'ENOTPUBLIC') throw AppError.invalid(notPublicHostMessage(field), field);
      if (code && UNREACHABLE_CODES.has(code))
        throw AppError.invalid(`${field} is not reachable (${code}): the URL must be publicly accessible and not expired`, field);
      return;
    }
    if (GONE_STATUSES.has(status))
      throw AppError.invalid(`${field} is not reachable (HTTP ${status}): the URL must be publicly accessible and not expired`, field);
    if (status !== 200 && status !== 206) return;
    if (sniffImageType(head) === null) throw notImage(contentType ? `${contentType}` : 'something else');
  }
}

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
