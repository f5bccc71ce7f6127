import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AppError } from '../../common/errors/app-error';
import { sniffImageType } from '../../common/urls/image-type';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { fetchPublicUrl, TooManyRedirectsError } from '../../common/urls/public-fetch';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { assertMediaNotGone, headRange, mediaConnectionRefusal, PROBE_TIMEOUT_MS, readProbeHead } from '../shared/media-url-probe';

/** Enough for every magic number sniffImageType knows. */
const SNIFF_BYTES = 64;

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
        { url, method: 'GET', responseType: 'stream', headers: headRange(SNIFF_BYTES), timeout: PROBE_TIMEOUT_MS },
        { ...mediaSourcePolicy(this.config), field },
      );
      status = response.status;
      contentType = String(response.headers['content-type'] ?? '')
        .split(';')[0]
        .trim();
      head = await readProbeHead(status, response.data, SNIFF_BYTES);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof TooManyRedirectsError) throw AppError.invalid(`${field} redirects too often`, field);
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      const refusal = mediaConnectionRefusal(code, field);
      if (refusal) throw refusal;
      return;
    }
    assertMediaNotGone(status, field);
    if (status !== 200 && status !== 206) return;
    if (sniffImageType(head) === null) throw notImage(contentType ? `${contentType}` : 'something else');
  }
}
