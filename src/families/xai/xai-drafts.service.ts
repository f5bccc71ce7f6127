import { Injectable } from '@nestjs/common';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { validBodyWithFirstFrame } from '../shared/input-reference';
import { jsonCopy } from '../shared/json-copy';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { videoDraftFields } from '../shared/video-draft-fields';
import { sourceVideoDraft } from '../shared/source-video-draft';
import { XAI_MAX_INLINE_IMAGE_BYTES } from './xai-models';
import type { XaiTaskRequest } from './xai-protocol';
import { XaiVideoRequestDto } from './xai-request.dto';
import { settleXaiSourceRequest } from './xai-source-rules';
import { settleXaiRequest } from './xai-task-rules';

/**
 * An xAI model's body (both forms, same field names) -> a task draft: the schema, the model's rules
 * read from its catalog entry, then the first frame (a URL goes as it is, a data URI or file part is
 * held until the submit). Priced per second at the resolution.
 */
@Injectable()
export class XaiDrafts implements FamilyDrafts<XaiTaskRequest> {
  constructor(private readonly images: UrlOrInlineImages) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<XaiTaskRequest>> {
    const { body, firstFrame: frame } = await validBodyWithFirstFrame(XaiVideoRequestDto, input, multipartFields(input));
    if (input.sourceVideo) {
      const settled = settleXaiSourceRequest(model, catalog, body, frame !== undefined, input.sourceVideo);
      return sourceVideoDraft('xai', model, body.prompt, input.sourceVideo, settled);
    }
    const settled = settleXaiRequest(model, catalog, body, frame !== undefined);
    const prepared = frame !== undefined ? await this.images.prepare(frame, 'input_reference', XAI_MAX_INLINE_IMAGE_BYTES) : undefined;
    const request: XaiTaskRequest = {
      prompt: body.prompt,
      duration: settled.duration,
      resolution: settled.resolution,
      extra: settled.extra,
      ...(settled.aspectRatio ? { aspectRatio: settled.aspectRatio } : {}),
      ...(prepared ? { image: prepared.image } : {}),
      ...(settled.generateAudio !== undefined ? { generateAudio: settled.generateAudio } : {}),
    };
    return {
      draft: {
        platform: 'xai',
        ...videoDraftFields(model, body.prompt, prepared !== undefined),
        mode: settled.mode,
        request: jsonCopy(request),
        quote: { model, resolution: settled.resolution, seconds: settled.duration, audio: settled.audioBilled },
      },
      release: prepared?.release,
    };
  }
}

/** A multipart field is always a string: `audio` becomes the boolean it spells. */
function multipartFields(input: SubmitInput): Record<string, unknown> {
  if (input.form !== 'flat' || (input.body.audio !== 'true' && input.body.audio !== 'false')) return input.body;
  return { ...input.body, audio: input.body.audio === 'true' };
}
