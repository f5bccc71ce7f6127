import { AppError } from '../../common/errors/app-error';
import type { SourceVideo, SubmitInput } from '../family';
import { assertPromptWithinEntry } from '../shared/entry-rules';
import { assertSourceSeconds, entryLengths, refuseWithSourceVideo, sourceResolution } from '../shared/source-video-rules';
import type { RunwayTaskRequest } from './runway-request';
import { checkMetadata, type RunwayModel } from './runway-request-rules';
import type { RunwayVideoRequestDto } from './runway-request.dto';

/** What a Runway remix is priced at, beside its request. */
export interface RunwaySourcePlan {
  request: RunwayTaskRequest;
  seconds: number;
  resolution: string;
}

/**
 * A Runway video-to-video (`POST /v1/video_to_video`, aleph2): the source video (`videoUri`), an
 * optional prompt and seed; its length and frame are the source's, which must be one of the entry's
 * lengths (aleph2: 2 to 30 s). Priced by the source's seconds; each refusal a 400 naming the field.
 */
export function planRunwaySourceRequest(
  name: string,
  model: RunwayModel,
  body: RunwayVideoRequestDto,
  input: Pick<SubmitInput, 'inputReferenceFile'>,
  source: SourceVideo,
): RunwaySourcePlan {
  const { entry } = model;
  const what = `a Runway video-to-video (${name})`;
  if (input.inputReferenceFile !== undefined) throw AppError.invalid(`input_reference is not taken by ${what}`, 'input_reference');
  refuseWithSourceVideo(body, ['input_reference', 'last_frame', 'negative_prompt', 'size', 'aspect_ratio', 'resolution', 'duration'], what);
  const extra = { ...(body.metadata ?? {}) };
  checkMetadata(name, model, extra);
  assertPromptWithinEntry(body.prompt, entry, name);
  assertSourceSeconds(source, entryLengths(entry), what);
  const request: RunwayTaskRequest = {
    mode: 'video',
    ratio: source.size?.replace('x', ':') ?? '',
    duration: source.seconds,
    videoUri: source.url,
    extra,
  };
  if (body.prompt?.trim()) request.promptText = body.prompt;
  if (body.seed !== undefined) request.seed = body.seed;
  return { request, seconds: source.seconds, resolution: sourceResolution(source, entry) };
}
