import { AppError } from '../../common/errors/app-error';
import type { SourceVideo } from '../family';
import { assertPromptWithinEntry } from '../shared/entry-rules';
import { assertSourceSeconds, refuseWithSourceVideo, sourceResolution } from '../shared/source-video-rules';
import type { SourceSettled } from '../shared/source-video-draft';
import {
  KLING_EXTEND_SECONDS,
  KLING_RATIOS,
  KLING_RESOLUTION_OF_MODE,
  KLING_SOURCE_GATEWAY_KEYS,
  KLING_SOURCE_PIXELS,
  KLING_SOURCE_SECONDS,
  type KlingMode,
} from './kling-models';
import type { KlingSourceVideo, KlingTaskRequest } from './kling-protocol';
import type { KlingVideoRequestDto } from './kling-request.dto';
import type { KlingModel } from './kling-task-rules';

/** How the prompt of an extend names its video when the client did not: Kling's own wording for the next shot (UNCONFIRMED). */
const VIDEO_REFERENCE = '<<<video_1>>>';
const NEXT_SHOT = `Based on ${VIDEO_REFERENCE}, generate the next shot: `;

/**
 * A Kling video from a stored one, on omni-video (upstream-protocols-wires.md, 4.3): an edit sends the
 * source as the `base` video (no duration or aspect ratio: the output follows it), an extend as a
 * `feature` reference from which the next shot is made (3 to 10 s, 5 by default, in the source's
 * shape). The source is 3 to 10 s at 720 to 2160 pixels; the mode follows its resolution (720p std,
 * 1080p pro); there is no sound over a video (`keep_original_sound` keeps the source's: an edit's
 * default). Priced by the new seconds (an edit: the source's), silent; each refusal a 400 naming
 * the field, before any charge.
 */
export function settleKlingSourceRequest(
  name: string,
  model: KlingModel,
  body: KlingVideoRequestDto,
  hasImage: boolean,
  source: SourceVideo,
): SourceSettled<KlingTaskRequest> {
  const extend = source.mode === 'video-extend';
  const what = `a Kling ${extend ? 'extend' : 'edit'}`;
  if (!model.omni)
    throw AppError.invalid(`${name}'s route does not speak omni-video: Kling makes a video from a video there alone`, source.field);
  if (hasImage) throw AppError.invalid(`input_reference is not taken by ${what}: the video is the source`, 'input_reference');
  refuseWithSourceVideo(body, ['last_frame', 'seed', 'size', 'aspect_ratio', 'resolution'], what);
  if (!body.prompt?.trim()) throw AppError.invalid('prompt is required', 'prompt');
  const extra = sourceMetadata(body.metadata);
  const keepSound = extra.keep_original_sound ?? (extend ? 'no' : 'yes');
  delete extra.keep_original_sound;
  assertSourceSeconds(source, KLING_SOURCE_SECONDS, what);
  assertSourcePixels(source, what);
  const resolution = sourceResolution(source, model.entry);
  const mode = modeOf(resolution, model);

  let seconds = source.seconds;
  if (extend) {
    seconds = body.duration ?? KLING_EXTEND_SECONDS.default;
    if (seconds < KLING_EXTEND_SECONDS.min || seconds > KLING_EXTEND_SECONDS.max)
      throw AppError.invalid(`duration must be ${KLING_EXTEND_SECONDS.min} to ${KLING_EXTEND_SECONDS.max} seconds for ${what}`, 'duration');
  } else refuseWithSourceVideo(body, ['duration'], what);
  const prompt = extend && !body.prompt.includes(VIDEO_REFERENCE) ? `${NEXT_SHOT}${body.prompt}` : body.prompt;
  assertPromptWithinEntry(prompt, model.entry, name);

  const video: KlingSourceVideo = { video_url: source.url, refer_type: extend ? 'feature' : 'base', keep_original_sound: keepSound };
  const request: KlingTaskRequest = {
    endpoint: 'omni-video',
    prompt,
    duration: seconds,
    mode,
    extra,
    source: video,
    ...(body.negative_prompt !== undefined ? { negativePrompt: body.negative_prompt } : {}),
    // A `feature` video leaves the frame to the request: the source's own shape.
    ...(extend ? { aspectRatio: ratioOf(source.size) } : {}),
  };
  return { request, seconds, resolution: KLING_RESOLUTION_OF_MODE[mode], audio: false };
}

/** The client's metadata with a source: no key the gateway writes, no sound, `keep_original_sound` yes or no. */
function sourceMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> & { keep_original_sound?: 'yes' | 'no' } {
  const extra = { ...(metadata ?? {}) };
  const setByGateway = Object.keys(extra).find((key) => KLING_SOURCE_GATEWAY_KEYS.includes(key));
  if (setByGateway)
    throw AppError.invalid(`metadata.${setByGateway} is set by the gateway with a source video`, `metadata.${setByGateway}`);
  if (extra.sound !== undefined && extra.sound !== 'off')
    throw AppError.invalid('metadata.sound must be "off" with a source video (Kling makes no sound over a video)', 'metadata.sound');
  if (extra.keep_original_sound !== undefined && extra.keep_original_sound !== 'yes' && extra.keep_original_sound !== 'no')
    throw AppError.invalid('metadata.keep_original_sound must be "yes" or "no"', 'metadata.keep_original_sound');
  return extra;
}

/** Kling takes a video of 720 to 2160 pixels a side: the source's frame when known, else the lines its resolution names. */
function assertSourcePixels(source: SourceVideo, what: string): void {
  const frame = source.size ? /^(\d+)x(\d+)$/.exec(source.size) : null;
  const sides = frame ? [Number(frame[1]), Number(frame[2])] : null;
  const lines = !sides && source.resolution ? /^(\d+)p$/i.exec(source.resolution) : null;
  const short = sides ? Math.min(...sides) : lines ? Number(lines[1]) : null;
  const long = sides ? Math.max(...sides) : null;
  if ((short === null || short >= KLING_SOURCE_PIXELS.min) && (long === null || long <= KLING_SOURCE_PIXELS.max)) return;
  throw AppError.invalid(
    `the source video (${source.taskId}) is ${source.size ?? source.resolution}: ${what} takes ${KLING_SOURCE_PIXELS.min} to ${KLING_SOURCE_PIXELS.max} pixels a side`,
    source.field,
  );
}

/** Kling's mode for the resolution the source is priced at; one the model does not name: its highest. */
function modeOf(resolution: string, model: KlingModel): KlingMode {
  const mode = (Object.keys(KLING_RESOLUTION_OF_MODE) as KlingMode[]).find((each) => KLING_RESOLUTION_OF_MODE[each] === resolution);
  return mode && model.modes.includes(mode) ? mode : model.modes.at(-1)!;
}

/** The ratio closest to the source's frame (16:9 when unknown). */
function ratioOf(size: string | null): string {
  const frame = size ? /^(\d+)x(\d+)$/.exec(size) : null;
  if (!frame) return KLING_RATIOS[0];
  const shape = Number(frame[1]) / Number(frame[2]);
  const distance = (ratio: string) => {
    const [w, h] = ratio.split(':').map(Number);
    return Math.abs(Math.log(shape / (w / h)));
  };
  return KLING_RATIOS.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}
