import { Injectable } from '@nestjs/common';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { typedMultipartFields, validBodyWithFirstFrame } from '../shared/input-reference';
import { jsonCopy } from '../shared/json-copy';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { videoDraftFields } from '../shared/video-draft-fields';
import { sourceVideoDraft } from '../shared/source-video-draft';
import { SEEDANCE_MAX_INLINE_IMAGE_BYTES } from './seedance-models';
import type { SeedanceTaskRequest } from './seedance-protocol';
import { SeedanceVideoRequestDto } from './seedance-request.dto';
import { settleSeedanceSourceRequest } from './seedance-source-rules';
import { settleSeedanceRequest } from './seedance-task-rules';

/**
 * A Seedance model's body (both forms, same field names) -> a task draft: the schema, the model's
 * rules read from its catalog entry, then the images in Ark's order (first frame, last frame, or the
 * references; URLs go as they are, data URIs and file parts are held until the submit). Priced per
 * second at the resolution, with audio when it is on.
 */
@Injectable()
export class SeedanceDrafts implements FamilyDrafts<SeedanceTaskRequest> {
  constructor(private readonly images: UrlOrInlineImages) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, { entry }: CatalogModel): Promise<FamilyDraft<SeedanceTaskRequest>> {
    const fields = typedMultipartFields(input, { booleans: ['audio'], integers: ['seed'], lists: ['reference_images'] });
    const { body, firstFrame } = await validBodyWithFirstFrame(SeedanceVideoRequestDto, input, fields);
    if (input.sourceVideo) {
      const settled = settleSeedanceSourceRequest(model, entry, body, firstFrame !== undefined, input.sourceVideo);
      return sourceVideoDraft('seedance', model, body.prompt, input.sourceVideo, settled);
    }
    const settled = settleSeedanceRequest(model, entry, body, firstFrame !== undefined);
    return this.images.draftWith(SEEDANCE_MAX_INLINE_IMAGE_BYTES, async (read) => {
      const images: NonNullable<SeedanceTaskRequest['images']> = [];
      if (firstFrame !== undefined) images.push({ role: 'first_frame', image: await read(firstFrame, 'input_reference') });
      if (body.last_frame !== undefined) images.push({ role: 'last_frame', image: await read(body.last_frame, 'last_frame') });
      for (const [index, reference] of (body.reference_images ?? []).entries())
        images.push({ role: 'reference_image', image: await read(reference, `reference_images[${index}]`) });
      const { mode, duration, resolution, ratio, generateAudio, extra } = settled;
      const request: SeedanceTaskRequest = {
        duration,
        resolution,
        ratio,
        generateAudio,
        extra,
        ...(body.prompt?.trim() ? { prompt: body.prompt } : {}),
        ...(body.seed !== undefined ? { seed: body.seed } : {}),
        ...(images.length > 0 ? { images } : {}),
      };
      return {
        platform: 'seedance',
        ...videoDraftFields(model, body.prompt ?? '', images.length > 0),
        mode,
        request: jsonCopy(request),
        quote: { model, resolution, seconds: duration, audio: generateAudio },
      };
    });
  }
}
