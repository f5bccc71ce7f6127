import { AppError } from '../../common/errors/app-error';
import type { SubmitInput } from '../family';
import { assertModelDuration } from '../shared/model-durations';
import { VEO_DEFAULT_RESOLUTION, VEO_DEFAULT_SECONDS, VEO_HIGH_RESOLUTION_SECONDS, VEO_MODELS } from './veo-models';
import type { VeoTaskRequest } from './veo-protocol';
import type { VeoVideoRequestDto } from './veo-request.dto';
import { assertOneInputReference } from '../shared/input-reference';

/** Pixel sizes Veo makes, as aspect ratio and resolution. */
const SIZES: Readonly<Record<string, { aspectRatio: string; resolution: string }>> = {
  '1280x720': { aspectRatio: '16:9', resolution: '720p' },
  '720x1280': { aspectRatio: '9:16', resolution: '720p' },
  '1920x1080': { aspectRatio: '16:9', resolution: '1080p' },
  '1080x1920': { aspectRatio: '9:16', resolution: '1080p' },
  '3840x2160': { aspectRatio: '16:9', resolution: '4k' },
  '2160x3840': { aspectRatio: '9:16', resolution: '4k' },
};
/** `parameters` the gateway sets itself (or refuses to pass on): not to be overridden through metadata. */
const GATEWAY_PARAMETERS = ['aspectRatio', 'durationSeconds', 'resolution', 'negativePrompt', 'sampleCount', 'numberOfVideos', 'seed'];

/** Where a task's images come from, for the drafts to fetch or decode (the file part: multipart only). */
export type VeoImageSource = { url: string } | { dataUri: string } | { file: NonNullable<SubmitInput['inputReferenceFile']> };

export interface VeoRequestPlan {
  request: Omit<VeoTaskRequest, 'image' | 'lastFrame'>;
  image?: VeoImageSource;
  lastFrame?: VeoImageSource;
}

/**
 * A validated body -> what is sent to Veo, or a 400 naming the field the client sent: durations and
 * resolutions of the model, 1080p/4k at 8 s only, size or ratio (not both), last frame on Veo 3.1
 * with a first frame, no seed (Gemini API), metadata never overriding a gateway-set parameter.
 */
export function planVeoRequest(
  model: string,
  body: VeoVideoRequestDto,
  input: Pick<SubmitInput, 'inputReferenceFile'> & { seedSent: boolean },
): VeoRequestPlan {
  const rules = VEO_MODELS[model];
  if (input.seedSent) throw AppError.invalid(`seed is not taken by ${model} on the Gemini API`, 'seed');
  const seconds = body.duration ?? VEO_DEFAULT_SECONDS;
  assertModelDuration(seconds, rules.durations, model);
  const { aspectRatio, resolution, resolutionField } = shapeOf(body);
  if (!rules.resolutions.includes(resolution))
    throw AppError.invalid(`${resolutionField} must be ${rules.resolutions.join(', ')} for ${model}`, resolutionField);
  if (resolution !== '720p' && seconds !== VEO_HIGH_RESOLUTION_SECONDS) {
    throw AppError.invalid(`duration must be ${VEO_HIGH_RESOLUTION_SECONDS} seconds at ${resolution}`, 'duration');
  }
  const image = imageSource(body.input_reference, input.inputReferenceFile);
  if (!image && !body.prompt?.trim()) throw AppError.invalid('prompt is required (or an input_reference image)', 'prompt');
  if (body.last_frame !== undefined) {
    if (!rules.lastFrame) throw AppError.invalid(`last_frame is not taken by ${model} (Veo 3.1 models only)`, 'last_frame');
    if (!image) throw AppError.invalid('last_frame needs an input_reference first frame', 'last_frame');
  }
  const metadata = body.metadata ?? {};
  const overridden = Object.keys(metadata).find((key) => GATEWAY_PARAMETERS.includes(key));
  if (overridden)
    throw AppError.invalid(`metadata.${overridden} is set by the gateway; use the request's own fields`, `metadata.${overridden}`);
  const request: VeoRequestPlan['request'] = {
    durationSeconds: seconds,
    aspectRatio,
    resolution,
    ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
    ...(body.negative_prompt !== undefined ? { negativePrompt: body.negative_prompt } : {}),
    ...(Object.keys(metadata).length > 0 ? { extraParameters: metadata } : {}),
  };
  return { request, image, lastFrame: body.last_frame !== undefined ? urlOrDataUri(body.last_frame) : undefined };
}

function shapeOf(body: VeoVideoRequestDto): { aspectRatio: string; resolution: string; resolutionField: string } {
  if (body.size !== undefined) {
    if (body.aspect_ratio !== undefined || body.resolution !== undefined)
      throw AppError.invalid('give size, or aspect_ratio with resolution, not both', 'size');
    const shape = SIZES[body.size.toLowerCase()];
    if (!shape) throw AppError.invalid(`size must be one of ${Object.keys(SIZES).join(', ')}`, 'size');
    return { ...shape, resolutionField: 'size' };
  }
  return {
    aspectRatio: body.aspect_ratio ?? '16:9',
    resolution: (body.resolution ?? VEO_DEFAULT_RESOLUTION).toLowerCase(),
    resolutionField: 'resolution',
  };
}

function imageSource(
  reference: VeoVideoRequestDto['input_reference'],
  file: SubmitInput['inputReferenceFile'],
): VeoImageSource | undefined {
  assertOneInputReference(file !== undefined, reference);
  if (file) return { file };
  if (reference === undefined) return undefined;
  return urlOrDataUri(typeof reference === 'string' ? reference : reference.image_url);
}

const urlOrDataUri = (source: string): VeoImageSource => (/^data:/i.test(source) ? { dataUri: source } : { url: source });
