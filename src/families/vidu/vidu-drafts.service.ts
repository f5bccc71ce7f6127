import { Injectable } from '@nestjs/common';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { typedMultipartFields, validBodyWithFirstFrame } from '../shared/input-reference';
import { jsonCopy } from '../shared/json-copy';
import { UrlOrInlineImage, UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { videoDraftFields } from '../shared/video-draft-fields';
import { VIDU_MAX_INLINE_IMAGE_BYTES } from './vidu-models';
import type { ViduTaskRequest } from './vidu-protocol';
import { ViduVideoRequestDto } from './vidu-request.dto';
import { settleViduRequest, viduModelOf } from './vidu-task-rules';

/**
 * A Vidu model's body (both forms, same field names) -> a task draft: the schema, the model's rules
 * read from its catalog entry and route, then the frames (URLs go as they are, data URIs and file
 * parts are held until the submit). Priced per second at the resolution, with audio when it is on.
 */
@Injectable()
export class ViduDrafts implements FamilyDrafts<ViduTaskRequest> {
  constructor(private readonly images: UrlOrInlineImages) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<ViduTaskRequest>> {
    const fields = typedMultipartFields(input, { booleans: ['audio'], integers: ['seed'] });
    const { body, firstFrame: first } = await validBodyWithFirstFrame(ViduVideoRequestDto, input, fields);
    const settled = settleViduRequest(model, viduModelOf(catalog), body, first !== undefined);
    return this.images.draftWith(VIDU_MAX_INLINE_IMAGE_BYTES, async (read) => {
      const images: UrlOrInlineImage[] = [];
      if (first !== undefined) images.push(await read(first, 'input_reference'));
      if (body.last_frame !== undefined) images.push(await read(body.last_frame, 'last_frame'));
      const request: ViduTaskRequest = {
        endpoint: settled.endpoint,
        duration: settled.duration,
        resolution: settled.resolution,
        extra: settled.extra,
        ...(body.prompt?.trim() ? { prompt: body.prompt } : {}),
        ...(settled.aspectRatio ? { aspectRatio: settled.aspectRatio } : {}),
        ...(body.seed !== undefined ? { seed: body.seed } : {}),
        ...(settled.audio ? { audio: settled.audio } : {}),
        ...(images.length > 0 ? { images } : {}),
      };
      return {
        platform: 'vidu',
        ...videoDraftFields(model, body.prompt ?? '', images.length > 0),
        mode: settled.mode,
        request: jsonCopy(request),
        quote: { model, resolution: settled.resolution, seconds: settled.duration, audio: settled.audioBilled },
      };
    });
  }
}
