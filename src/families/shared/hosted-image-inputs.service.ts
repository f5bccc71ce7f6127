import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { HeldValues } from '../../common/runtime/held-values';
import { sniffImageType } from '../../common/urls/image-type';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { UploadedPart } from '../family';

/**
 * An image as a hosted platform's task keeps it: an http(s) URL the provider fetches itself, or a
 * data URI held in memory until the submit (`task.request` keeps its digest, never the bytes).
 */
export type HostedImageRef = { url: string } | { staged: string };

/** The most of one image sent inline (replicate-javascript's MAX_DATA_URI_SIZE; fal takes data URIs of this size). */
export const HOSTED_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const DATA_URI = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/\s]+={0,2})$/i;

/**
 * The images of a fal or Replicate request. Both platforms take an image input as a URL or as a
 * data URI: a URL (public unless MEDIA_ALLOW_PRIVATE_HOSTS) goes as it is; a data URI or a
 * multipart file part must be a PNG, JPEG or WebP of at most 10 MB, and goes inline as a data URI.
 * Each family module has its own instance.
 */
@Injectable()
export class HostedImageInputs {
  private readonly staged = new HeldValues<string>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The image `field` names, with what lets go of it once the submit is over; a 400 naming `field` for one no provider could take. */
  async prepare(value: string | UploadedPart, field: string): Promise<{ ref: HostedImageRef; release?: () => void }> {
    if (typeof value !== 'string') return this.stage(value.buffer, field);
    const data = DATA_URI.exec(value.trim());
    if (data) return this.stage(Buffer.from(data[2].replace(/\s+/g, ''), 'base64'), field);
    if (!/^https?:\/\//i.test(value)) throw AppError.invalid(`${field} must be an http(s) URL or a base64 data URI of an image`, field);
    await assertPublicHttpUrl(value, field, mediaSourcePolicy(this.config));
    return { ref: { url: value } };
  }

  /** What the endpoint's input carries for an image: its URL, or the staged data URI. */
  uri(ref: HostedImageRef): string {
    if ('url' in ref) return ref.url;
    const dataUri = this.staged.get(ref.staged);
    // Only after a restart between the submit and its upstream call: the client sends it again.
    if (dataUri === undefined) throw new UpstreamError('invalid_input', 'the input image is no longer available, send it again');
    return dataUri;
  }

  private stage(bytes: Buffer, field: string): { ref: HostedImageRef; release: () => void } {
    const mime = sniffImageType(bytes);
    if (!mime) throw AppError.invalid(`${field} must be a PNG, JPEG or WebP image`, field);
    if (bytes.length > HOSTED_MAX_IMAGE_BYTES)
      throw AppError.invalid(`${field} must be at most 10 MB inline; give a larger image as an http(s) URL`, field);
    const dataUri = `data:${mime};base64,${bytes.toString('base64')}`;
    const digest = createHash('sha256').update(dataUri).digest('hex');
    return { ref: { staged: digest }, release: this.staged.hold(digest, dataUri) };
  }
}
