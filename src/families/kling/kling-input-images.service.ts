import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { HeldValues } from '../../common/runtime/held-values';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { UploadedPart } from '../family';
import type { KlingImage } from './kling-protocol';

/** Kling's limit for an image (10 MB), and the formats it takes. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const DATA_URI = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/]+={0,2})$/i;
const IS_PNG = (bytes: Buffer) => bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'));
const IS_JPEG = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/**
 * Reads a request's images as Kling takes them: an http(s) URL (public unless
 * MEDIA_ALLOW_PRIVATE_HOSTS) goes as it is; a data URI or a file part goes as raw base64, held in
 * memory from the request schema to the submit (`task.request` keeps only its digest).
 */
@Injectable()
export class KlingInputImages {
  private readonly staged = new HeldValues<string>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The image `field` names, with what lets go of it once the submit is over. */
  async read(value: string | UploadedPart, field: string): Promise<{ image: KlingImage; release?: () => void }> {
    if (typeof value !== 'string') return this.stage(value.buffer, field);
    const data = DATA_URI.exec(value);
    if (data) return this.stage(Buffer.from(data[2], 'base64'), field);
    if (!/^https?:\/\//i.test(value)) throw AppError.invalid(`${field} must be an http(s) URL or a data:image/png|jpeg;base64 URI`, field);
    await assertPublicHttpUrl(value, field, mediaSourcePolicy(this.config));
    return { image: { url: value } };
  }

  base64(sha256: string): string {
    const staged = this.staged.get(sha256);
    if (staged === undefined) throw new UpstreamError('invalid_input', 'the input image is no longer available, send it again');
    return staged;
  }

  private stage(bytes: Buffer, field: string): { image: KlingImage; release: () => void } {
    if (!IS_PNG(bytes) && !IS_JPEG(bytes)) throw AppError.invalid(`${field} must be a jpg or png image`, field);
    if (bytes.length > MAX_IMAGE_BYTES) throw AppError.invalid(`${field} must be at most 10 MB`, field);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return { image: { staged: sha256 }, release: this.staged.hold(sha256, bytes.toString('base64')) };
  }
}
