import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { HeldValues } from '../../common/runtime/held-values';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { UploadedPart } from '../family';
import type { RunwayImageRef } from './runway-request';
import type { RunwayFrameInput } from './runway-request-rules';

/** Runway takes a data URI of at most 5 MB, encoded. */
export const RUNWAY_MAX_DATA_URI_BYTES = 5 * 1024 * 1024;
const IMAGE_MIME = /^image\/(png|jpeg|webp)$/;
const DATA_URI = /^data:(image\/(?:png|jpeg|webp));base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * The first and last frames of a Runway request: an https URL goes to Runway as it is (Runway
 * fetches it, so the media URL rules apply); a data URI or a file part is held in memory until
 * the submit (`task.request` keeps its digest), as the provider takes the data URI inline.
 */
@Injectable()
export class RunwayInputImages {
  private readonly staged = new HeldValues<string>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async prepare(frame: RunwayFrameInput, file: UploadedPart | undefined): Promise<{ ref: RunwayImageRef; release?: () => void }> {
    const dataUri = frame.value === null ? fileDataUri(file!, frame.field) : frame.value.trim();
    if (!/^data:/i.test(dataUri)) return { ref: { url: await httpsUrl(dataUri, frame.field, this.config) } };
    if (!DATA_URI.test(dataUri))
      throw AppError.invalid(`${frame.field} must be an https URL or a base64 data URI of a PNG, JPEG or WebP image`, frame.field);
    if (dataUri.length > RUNWAY_MAX_DATA_URI_BYTES)
      throw AppError.invalid(`${frame.field} must be at most 5 MB as a data URI (about 3.7 MB of image)`, frame.field);
    const digest = createHash('sha256').update(dataUri).digest('hex');
    return { ref: { staged: digest }, release: this.staged.hold(digest, dataUri) };
  }

  /** What `promptImage` carries for a frame: its URL, or the staged data URI. */
  uri(ref: RunwayImageRef): string {
    if ('url' in ref) return ref.url;
    const dataUri = this.staged.get(ref.staged);
    // Only after a restart between the submit and its upstream call: the client sends it again.
    if (dataUri === undefined) throw new UpstreamError('invalid_input', 'the input image is no longer available, send it again');
    return dataUri;
  }
}

function fileDataUri(file: UploadedPart, field: string): string {
  const mime = (file.mimetype ?? '').toLowerCase();
  if (!IMAGE_MIME.test(mime)) throw AppError.invalid(`${field} must be a PNG, JPEG or WebP image`, field);
  return `data:${mime};base64,${file.buffer.toString('base64')}`;
}

/** Runway fetches only https URLs (no redirects followed). */
async function httpsUrl(raw: string, field: string, config: AppConfig): Promise<string> {
  const url = await assertPublicHttpUrl(raw, field, mediaSourcePolicy(config));
  if (url.protocol !== 'https:') throw AppError.invalid(`${field} must be an https URL or a data URI (Runway fetches https only)`, field);
  return raw;
}
