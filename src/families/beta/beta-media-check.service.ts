import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AppError } from '../../common/errors/app-error';
import { publicOnlyLookup } from '../../common/urls/public-fetch';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { isTrustedHost, mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { assertMediaNotGone, headRange, mediaConnectionRefusal, PROBE_TIMEOUT_MS, readProbeHead } from '../shared/media-url-probe';
import type { MediaToCheck } from './beta-body.parser';
import { SNIFF_BYTES, sniffFormat, totalSizeOf } from './media-probe';

const MB = 1024 * 1024;
const LIMITS = {
  image: { maxBytes: 10 * MB, formats: ['jpeg', 'png', 'webp'], describe: 'a JPEG, PNG or WEBP image' },
  video: { maxBytes: 100 * MB, formats: ['mp4'], describe: 'an MP4 or MOV video' },
};

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
    let status: number;
    let headers: Record<string, unknown>;
    let head: Buffer;
    const guarded = !this.config.mediaAllowPrivateHosts && !isTrustedHost(element.url, mediaSourcePolicy(this.config));
    try {
      const response = await this.http.axiosRef.get<Readable>(element.url, {
        responseType: 'stream',
        headers: headRange(SNIFF_BYTES),
        timeout: PROBE_TIMEOUT_MS,
        maxRedirects: 0,
        validateStatus: () => true,
        // As for family A images: the connection itself refuses names that now resolve to private addresses (DNS rebinding).
        ...(guarded ? { lookup: publicOnlyLookup } : {}),
      });
      status = response.status;
      headers = response.headers;
      head = await readProbeHead(status, response.data, SNIFF_BYTES);
    } catch (error) {
      const refusal = mediaConnectionRefusal((error as { code?: string }).code, element.field);
      if (refusal) throw refusal;
      return;
    }
    assertMediaNotGone(status, element.field);
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
