import { AppError } from '../../common/errors/app-error';
import type { CatalogModel, SourceVideo } from '../family';
import { assertPromptWithinEntry, clientMetadata } from '../shared/entry-rules';
import { assertSourceSeconds, entryLengths, refuseWithSourceVideo, sourceResolution } from '../shared/source-video-rules';
import type { SourceSettled } from '../shared/source-video-draft';
import { XAI_EXTEND_SECONDS, XAI_EXTEND_SOURCE_SECONDS, XAI_GATEWAY_KEYS } from './xai-models';
import type { XaiTaskRequest } from './xai-protocol';
import type { XaiVideoRequestDto } from './xai-request.dto';

/**
 * An xAI model's remix (vercel/ai's `edit-video` and `extend-video`, the SDK's `extend`): the prompt,
 * and for an extension the seconds it adds (`duration`, 1 to 10, default 6) after a source of 2 to 30
 * s; an edit follows its source (xAI documents no limit: the entry's longest, UNCONFIRMED). Neither
 * takes a frame, a size or audio. Priced by the new seconds (an edit: the source's), at the source's
 * resolution; each refusal a 400 naming the field, before any charge.
 */
export function settleXaiSourceRequest(
  name: string,
  { entry }: Pick<CatalogModel, 'entry'>,
  body: XaiVideoRequestDto,
  hasImage: boolean,
  source: SourceVideo,
): SourceSettled<XaiTaskRequest> {
  const extend = source.mode === 'video-extend';
  const what = `an xAI ${extend ? 'extension' : 'edit'}`;
  if (hasImage) throw AppError.invalid(`input_reference is not taken by ${what}: the video is the source`, 'input_reference');
  refuseWithSourceVideo(body, ['last_frame', 'negative_prompt', 'seed', 'size', 'aspect_ratio', 'resolution', 'audio'], what);
  if (!body.prompt.trim()) throw AppError.invalid('prompt is required', 'prompt');
  assertPromptWithinEntry(body.prompt, entry, name);
  const extra = clientMetadata(body.metadata, XAI_GATEWAY_KEYS);
  let seconds: number;
  if (extend) {
    assertSourceSeconds(source, XAI_EXTEND_SOURCE_SECONDS, what);
    seconds = body.duration ?? XAI_EXTEND_SECONDS.default;
    if (seconds < XAI_EXTEND_SECONDS.min || seconds > XAI_EXTEND_SECONDS.max)
      throw AppError.invalid(`duration must be ${XAI_EXTEND_SECONDS.min} to ${XAI_EXTEND_SECONDS.max} seconds for ${what}`, 'duration');
  } else {
    refuseWithSourceVideo(body, ['duration'], what);
    assertSourceSeconds(source, entryLengths(entry), what);
    seconds = source.seconds;
  }
  const request: XaiTaskRequest = {
    prompt: body.prompt,
    duration: seconds,
    resolution: sourceResolution(source, entry),
    extra,
    source: { operation: extend ? 'extend' : 'edit', url: source.url },
  };
  return { request, seconds, resolution: request.resolution, audio: entry.audio !== 'none' };
}
