import { AppError } from '../../common/errors/app-error';
import type { CatalogModel, SourceVideo } from '../family';
import { assertPromptWithinEntry, clientMetadata, durationWithinEntry } from '../shared/entry-rules';
import { assertSourceSeconds, refuseWithSourceVideo, sourceResolution } from '../shared/source-video-rules';
import type { SourceSettled } from '../shared/source-video-draft';
import { WAN_GATEWAY_PARAMETERS, WAN_RESOLUTION_VALUES, WAN_SOURCE_SECONDS } from './wan-models';
import type { WanTaskRequest } from './wan-protocol';
import type { WanVideoRequestDto } from './wan-request.dto';
import { wanRouteProtocol } from './wan-task-rules';

/**
 * Wan 2.7's video from a stored video, on the media wire: an edit is `wan2.7-videoedit` with the source
 * as `media[] {type: "video"}` (its output follows the source: no `duration`, DashScope's 0), an
 * extension `wan2.7-i2v` with it as `first_clip`, `duration` the whole new video's length, which holds
 * the clip (Alibaba's guide: a 2 s clip, a 12 s video; so more than the source, at most the entry's 15
 * s; default the source plus the entry's default). The source is 2 to 10 s for both. Neither takes a
 * frame, a size, a ratio or an audio switch (2.7 always makes audio; `metadata.audio_setting` goes as it
 * is); `resolution` is the entry's, default the source's. Priced by the new video's seconds; each
 * refusal a 400 naming the field, before any charge.
 */
export function settleWanSourceRequest(
  model: string,
  catalog: CatalogModel,
  body: WanVideoRequestDto,
  hasImage: boolean,
  source: SourceVideo,
): SourceSettled<WanTaskRequest> {
  const { entry } = catalog;
  const extend = source.mode === 'video-extend';
  const what = `a Wan ${extend ? 'extension' : 'edit'}`;
  if (wanRouteProtocol(catalog.route) !== 'media')
    throw AppError.invalid(`${what} is made on DashScope's media wire only: this route of ${model} speaks the legacy one`, 'model');
  if (hasImage || body.input_reference !== undefined)
    throw AppError.invalid(`input_reference is not taken by ${what}: the video is the source`, 'input_reference');
  refuseWithSourceVideo(body, ['last_frame', 'size', 'aspect_ratio', 'audio'], what);
  assertPromptWithinEntry(body.prompt, entry, model);
  const extra = clientMetadata(body.metadata, WAN_GATEWAY_PARAMETERS);
  assertSourceSeconds(source, WAN_SOURCE_SECONDS, what);
  let seconds: number;
  if (extend) {
    const defaultLength = Math.min(source.seconds + entry.defaultDuration, WAN_SOURCE_SECONDS.outputMax);
    seconds = durationWithinEntry(body.duration ?? defaultLength, entry, model);
    if (seconds <= source.seconds)
      throw AppError.invalid(
        `duration is the whole new video's length, the source's ${source.seconds} s included: more than ${source.seconds} for ${what}`,
        'duration',
      );
  } else {
    refuseWithSourceVideo(body, ['duration'], what);
    seconds = source.seconds;
  }
  const resolution = settledResolution(body.resolution, source, entry.resolutions, model);
  const input: Record<string, unknown> = {
    ...(body.prompt?.trim() ? { prompt: body.prompt } : {}),
    ...(body.negative_prompt !== undefined ? { negative_prompt: body.negative_prompt } : {}),
    ...(body.seed !== undefined ? { seed: body.seed } : {}),
    resolution: WAN_RESOLUTION_VALUES[resolution] ?? resolution.toUpperCase(),
    ...(extend ? { duration: seconds } : {}),
  };
  const request: WanTaskRequest = {
    protocol: 'media',
    mode: source.mode,
    input,
    images: { [extend ? 'first_clip' : 'video']: { url: source.url } },
    extra,
  };
  return { request, seconds, resolution, audio: entry.audio !== 'none' };
}

/** The resolution asked (one of the entry's), else the source's. */
function settledResolution(asked: string | undefined, source: SourceVideo, resolutions: readonly string[], model: string): string {
  if (asked === undefined) return sourceResolution(source, { resolutions: [...resolutions] });
  const named = resolutions.find((name) => name.toLowerCase() === asked.trim().toLowerCase());
  if (!named) throw AppError.invalid(`resolution must be ${resolutions.join(', ')} for ${model}`, 'resolution');
  return named;
}
