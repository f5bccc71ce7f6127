import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { HeldValues } from '../../common/runtime/held-values';
import { sniffImageType } from '../../common/urls/image-type';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { MinimaxImage, MinimaxStagedImage } from './minimax-protocol';

/** MiniMax takes images under 20 MB. */
export const MINIMAX_MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[^;,]*)*;base64,(.*)$/s;

/**
 * The images of a MiniMax submit: an http(s) URL is checked like every family's media URL and
 * passed on; a file part or a data URI is held in memory until the submit (the task keeps only its
 * digest) and sent as a data URL. JPG and PNG only, as MiniMax says.
 */
@Injectable()
export class MinimaxInputImages {
  private readonly staged = new HeldValues<Buffer>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A field's value (URL or data URI) as a task image; the release lets go of held bytes. */
  async fromField(value: string, field: string): Promise<{ image: MinimaxImage; release?: () => void }> {
    if (!/^data:/i.test(value)) {
      await assertPublicHttpUrl(value, field, mediaSourcePolicy(this.config));
      return { image: { url: value } };
    }
    const payload = DATA_URI.exec(value)?.[2].replace(/\s+/g, '');
    if (!payload || !/^[A-Za-z0-9+/]+={0,2}$/.test(payload))
      throw AppError.invalid(`${field} must be an http(s) URL or a base64 data URI (data:image/png;base64,...)`, field);
    return this.fromBytes(Buffer.from(payload, 'base64'), field);
  }

  /** A multipart file part as a task image. */
  fromBytes(bytes: Buffer, field: string): { image: MinimaxImage; release: () => void } {
    if (bytes.length > MINIMAX_MAX_IMAGE_BYTES) throw AppError.invalid(`${field} must be under 20 MB`, field);
    const mime = sniffImageType(bytes);
    if (mime !== 'image/png' && mime !== 'image/jpeg') throw AppError.invalid(`${field} must be a JPG or PNG image`, field);
    const staged: MinimaxStagedImage = { sha256: createHash('sha256').update(bytes).digest('hex'), mime, size: bytes.length };
    return { image: { staged }, release: this.staged.hold(staged.sha256, bytes) };
  }

  /** What `first_frame_image` / `last_frame_image` take: the URL, or the held bytes as a data URL. */
  toProviderValue(image: MinimaxImage): string {
    if ('url' in image) return image.url;
    const bytes = this.staged.get(image.staged.sha256);
    // Nothing is kept after the submit: an interrupted submit is failed and refunded, never resent.
    if (!bytes) throw new UpstreamError('invalid_input', 'the input image is no longer available, send it again');
    return `data:${image.staged.mime};base64,${bytes.toString('base64')}`;
  }
}
