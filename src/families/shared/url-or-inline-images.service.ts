import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { StoredRequest } from '../../upstream/upstream-task';
import type { FamilyDraft, FamilyTaskDraft, UploadedPart } from '../family';
import { StagedImageInputs, StagedImageRef } from './staged-image-inputs.service';

/** An image as a task keeps it: a URL the provider fetches itself, or a staged image (its digest) sent inline at the submit. */
export type UrlOrInlineImage = { url: string } | { staged: StagedImageRef };

/**
 * The images of a provider that takes either a URL it fetches or a `data:` URI inline (Vidu, xAI):
 * an http(s) URL goes as it is (a public host unless MEDIA_ALLOW_PRIVATE_HOSTS); a data URI or a
 * file part is checked (PNG, JPEG or WEBP, at most `maxBytes`) and held in memory until the submit,
 * `task.request` keeping only its digest. Each family module has its own instance.
 */
@Injectable()
export class UrlOrInlineImages {
  constructor(
    private readonly staged: StagedImageInputs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The image `field` names, with what lets go of it once the submit is over; 400s naming `field`. */
  async prepare(value: string | UploadedPart, field: string, maxBytes: number): Promise<{ image: UrlOrInlineImage; release?: () => void }> {
    if (typeof value === 'string' && !/^data:/i.test(value.trim())) {
      await assertPublicHttpUrl(value.trim(), field, mediaSourcePolicy(this.config));
      return { image: { url: value.trim() } };
    }
    const input = typeof value === 'string' ? { dataUri: value.trim() } : { file: value };
    const { ref, release } = await this.staged.prepare(input, field);
    if (ref.size > maxBytes) {
      release();
      throw AppError.invalid(`${field} must be at most ${Math.floor(maxBytes / (1024 * 1024))} MB as a file or data URI`, field);
    }
    return { image: { staged: ref }, release };
  }

  /** What the provider is sent: the URL, or the staged image as a data URI (an UpstreamError `invalid_input` once it is gone). */
  async wire(image: UrlOrInlineImage): Promise<string> {
    if ('url' in image) return image.url;
    const { bytes, mime } = await this.staged.load(image.staged);
    return `data:${mime};base64,${bytes.toString('base64')}`;
  }

  /**
   * A draft whose images `build` reads (`read(value, field)`, each at most `maxBytes` inline): they are
   * held until the submit is over, and let go of at once when the draft fails.
   */
  async draftWith<R extends StoredRequest>(
    maxBytes: number,
    build: (read: (value: string | UploadedPart, field: string) => Promise<UrlOrInlineImage>) => Promise<FamilyTaskDraft<R>>,
  ): Promise<FamilyDraft<R>> {
    const releases: Array<() => void> = [];
    const release = () => releases.forEach((letGo) => letGo());
    try {
      const draft = await build(async (value, field) => {
        const prepared = await this.prepare(value, field, maxBytes);
        if (prepared.release) releases.push(prepared.release);
        return prepared.image;
      });
      return { draft, release };
    } catch (error) {
      release();
      throw error;
    }
  }
}
