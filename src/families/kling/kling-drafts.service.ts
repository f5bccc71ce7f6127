import { Injectable } from '@nestjs/common';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { validBodyWithFirstFrame } from '../shared/input-reference';
import { videoDraftFields } from '../shared/video-draft-fields';
import { sourceVideoDraft } from '../shared/source-video-draft';
import { KlingInputImages } from './kling-input-images.service';
import { KLING_RESOLUTION_OF_MODE } from './kling-models';
import type { KlingImage, KlingTaskRequest } from './kling-protocol';
import { KlingVideoRequestDto } from './kling-request.dto';
import { settleKlingSourceRequest } from './kling-source-rules';
import { klingModelOf, settleKlingRequest } from './kling-task-rules';

/**
 * A Kling model's body (both forms, same field names) -> a task draft: the schema, the model's
 * rules read from its catalog entry, then the images. Priced per second at the mode's resolution (720p std, 1080p pro).
 * The route picks the endpoint: omni-video (its `omni` option or an omni upstream id), else text2video or image2video.
 * A video from a stored one (a remix, `metadata.source_task_id`) goes to omni-video's `video_list`.
 */
@Injectable()
export class KlingDrafts implements FamilyDrafts<KlingTaskRequest> {
  constructor(private readonly images: KlingInputImages) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<KlingTaskRequest>> {
    const { body, firstFrame: reference } = await validBodyWithFirstFrame(KlingVideoRequestDto, input);
    const kling = klingModelOf(catalog);
    if (input.sourceVideo) {
      const settled = settleKlingSourceRequest(model, kling, body, reference !== undefined, input.sourceVideo);
      return sourceVideoDraft('kling', model, body.prompt, input.sourceVideo, settled);
    }
    const settled = settleKlingRequest(model, kling, body, reference !== undefined);
    const releases: Array<() => void> = [];
    const read = async (value: Parameters<KlingInputImages['read']>[0], field: string): Promise<KlingImage> => {
      const { image, release } = await this.images.read(value, field);
      if (release) releases.push(release);
      return image;
    };
    const release = () => releases.forEach((letGo) => letGo());
    try {
      const request: KlingTaskRequest = {
        endpoint: kling.omni ? 'omni-video' : settled.imageToVideo ? 'image2video' : 'text2video',
        duration: settled.duration,
        mode: settled.mode,
        extra: settled.extra,
        ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
        ...(body.negative_prompt !== undefined ? { negativePrompt: body.negative_prompt } : {}),
        ...(settled.aspectRatio !== undefined ? { aspectRatio: settled.aspectRatio } : {}),
        ...(reference !== undefined ? { image: await read(reference, 'input_reference') } : {}),
        ...(body.last_frame !== undefined ? { imageTail: await read(body.last_frame, 'last_frame') } : {}),
      };
      return {
        draft: {
          platform: 'kling',
          ...videoDraftFields(model, body.prompt ?? '', settled.imageToVideo),
          mode: body.last_frame !== undefined ? 'first-last-frame' : settled.imageToVideo ? 'image-to-video' : 'text-to-video',
          request,
          ...(body.size !== undefined ? { size: body.size.toLowerCase() } : {}),
          // kling-v2-6 with `sound: on` is billed at the audio tier.
          quote: {
            model,
            resolution: KLING_RESOLUTION_OF_MODE[settled.mode],
            seconds: settled.duration,
            audio: settled.extra.sound === 'on',
          },
        },
        release,
      };
    } catch (error) {
      release();
      throw error;
    }
  }
}
