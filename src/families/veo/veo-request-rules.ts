import type { CatalogEntry, ModelMode } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel, SubmitInput } from '../family';
import { assertPromptWithinEntry, durationWithinEntry } from '../shared/entry-rules';
import { VEO_ASPECT_RATIOS, VEO_HIGH_RESOLUTION_SECONDS, VEO_HIGH_RESOLUTIONS } from './veo-models';
import type { VeoTaskRequest } from './veo-protocol';
import type { VeoVideoRequestDto } from './veo-request.dto';
import { assertOneInputReference } from '../shared/input-reference';
import { isInteractionsModel } from './omni-models';

/** Pixel sizes Veo makes, as aspect ratio and resolution. */
const SIZES: Readonly<Record<string, { aspectRatio: string; resolution: string }>> = {
  '640x360': { aspectRatio: '16:9', resolution: '360p' },
  '360x640': { aspectRatio: '9:16', resolution: '360p' },
  '1280x720': { aspectRatio: '16:9', resolution: '720p' },
  '720x1280': { aspectRatio: '9:16', resolution: '720p' },
  '1920x1080': { aspectRatio: '16:9', resolution: '1080p' },
  '1080x1920': { aspectRatio: '9:16', resolution: '1080p' },
  '3840x2160': { aspectRatio: '16:9', resolution: '4k' },
  '2160x3840': { aspectRatio: '9:16', resolution: '4k' },
};
/** `parameters` the gateway sets itself (or refuses to pass on): not to be overridden through metadata. */
const GATEWAY_PARAMETERS = ['aspectRatio', 'durationSeconds', 'resolution', 'negativePrompt', 'sampleCount', 'numberOfVideos', 'seed'];

/** Resolutions Veo's `resolution` parameter takes: an entry that lists none offers these. */
const VEO_RESOLUTIONS = ['720p', '1080p', '4k'];

/**
 * What a Veo model takes, read from its catalog entry: lengths and their default, resolutions and
 * aspect ratios (the first of each its default), and its modes (text-to-video, a first frame, a
 * last frame). A new Veo model is its entry alone.
 */
export interface VeoModel {
  entry: CatalogEntry;
  /** The route's wire: Veo's predictLongRunning, or Gemini Omni's Interactions API (no 8 s rule, no negative prompt, no metadata). */
  interactions: boolean;
  /** Lower case; the first is the default. */
  resolutions: readonly string[];
  /** The first is the default. */
  aspectRatios: readonly string[];
}

export function veoModelOf({
  entry,
  route,
}: Pick<CatalogModel, 'entry'> & { route?: Pick<CatalogModel['route'], 'upstreamModel'> }): VeoModel {
  return {
    entry,
    interactions: isInteractionsModel(firstUpstreamModel(route?.upstreamModel) ?? entry.id),
    resolutions: entry.resolutions.length > 0 ? entry.resolutions.map((resolution) => resolution.toLowerCase()) : VEO_RESOLUTIONS,
    aspectRatios: entry.aspectRatios.length > 0 ? entry.aspectRatios : VEO_ASPECT_RATIOS,
  };
}

/** A route's upstream model (one for every mode, or one per mode: a Google model speaks one wire whatever its mode). */
const firstUpstreamModel = (spec: CatalogModel['route']['upstreamModel'] | undefined): string | undefined =>
  typeof spec === 'string' ? spec : spec ? Object.values(spec)[0] : undefined;

/** Where a task's images come from, for the drafts to fetch or decode (the file part: multipart only). */
export type VeoImageSource = { url: string } | { dataUri: string } | { file: NonNullable<SubmitInput['inputReferenceFile']> };

export interface VeoRequestPlan {
  request: Omit<VeoTaskRequest, 'image' | 'lastFrame'>;
  mode: ModelMode;
  image?: VeoImageSource;
  lastFrame?: VeoImageSource;
}

/**
 * A validated body -> what is sent to Veo, or a 400 naming the field the client sent: the entry's
 * lengths, resolutions, aspect ratios, modes and prompt length; Veo's own rules (1080p/4k at 8 s
 * only, size or ratio but not both, a last frame with a first frame, no seed on the Gemini API,
 * metadata never overriding a gateway-set parameter).
 */
export function planVeoRequest(
  name: string,
  model: VeoModel,
  body: VeoVideoRequestDto,
  input: Pick<SubmitInput, 'inputReferenceFile'> & { seedSent: boolean },
): VeoRequestPlan {
  const { entry } = model;
  if (input.seedSent) throw AppError.invalid(`seed is not taken by ${name} on the Gemini API`, 'seed');
  const seconds = durationWithinEntry(body.duration, entry, name);
  const { aspectRatio, resolution, resolutionField, aspectField } = shapeOf(model, body);
  if (!model.resolutions.includes(resolution))
    throw AppError.invalid(`${resolutionField} must be ${model.resolutions.join(', ')} for ${name}`, resolutionField);
  if (!model.aspectRatios.includes(aspectRatio))
    throw AppError.invalid(`${aspectField} must be one of ${model.aspectRatios.join(', ')}`, aspectField);
  if (!model.interactions && VEO_HIGH_RESOLUTIONS.includes(resolution) && seconds !== VEO_HIGH_RESOLUTION_SECONDS) {
    throw AppError.invalid(`duration must be ${VEO_HIGH_RESOLUTION_SECONDS} seconds at ${resolution}`, 'duration');
  }
  assertPromptWithinEntry(body.prompt, entry, name);
  const image = imageSource(body.input_reference, input.inputReferenceFile);
  if (!image && !body.prompt?.trim()) throw AppError.invalid('prompt is required (or an input_reference image)', 'prompt');
  if (body.last_frame !== undefined) {
    if (!entry.modes.includes('first-last-frame')) throw AppError.invalid(`last_frame is not taken by ${name}`, 'last_frame');
    if (!image) throw AppError.invalid('last_frame needs an input_reference first frame', 'last_frame');
  }
  const mode: ModelMode = body.last_frame !== undefined ? 'first-last-frame' : image ? 'image-to-video' : 'text-to-video';
  if (!entry.modes.includes(mode)) {
    throw mode === 'text-to-video'
      ? AppError.invalid(`${name} is image-to-video only: input_reference is required`, 'input_reference')
      : AppError.invalid(`${name} does not take image-to-video requests`, 'input_reference');
  }
  if (model.interactions) assertOmniFields(name, body);
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
  return { request, mode, image, lastFrame: body.last_frame !== undefined ? urlOrDataUri(body.last_frame) : undefined };
}

/** Gemini Omni takes no negative prompt (negatives go in the prompt) and no parameters beyond the request's own fields. */
function assertOmniFields(name: string, body: VeoVideoRequestDto): void {
  if (body.negative_prompt !== undefined)
    throw AppError.invalid(`negative_prompt is not taken by ${name}: say what to avoid in the prompt`, 'negative_prompt');
  if (body.metadata !== undefined && Object.keys(body.metadata).length > 0)
    throw AppError.invalid(`metadata is not taken by ${name} (the Interactions API has no such parameters)`, 'metadata');
}

/** `size`, or `aspect_ratio` and `resolution` (each else the model's default), with the field that gave each. */
function shapeOf(
  model: VeoModel,
  body: VeoVideoRequestDto,
): { aspectRatio: string; resolution: string; resolutionField: string; aspectField: string } {
  if (body.size !== undefined) {
    if (body.aspect_ratio !== undefined || body.resolution !== undefined)
      throw AppError.invalid('give size, or aspect_ratio with resolution, not both', 'size');
    const shape = SIZES[body.size.toLowerCase()];
    if (!shape) throw AppError.invalid(`size must be one of ${Object.keys(SIZES).join(', ')}`, 'size');
    return { ...shape, resolutionField: 'size', aspectField: 'size' };
  }
  return {
    aspectRatio: body.aspect_ratio ?? model.aspectRatios[0],
    resolution: (body.resolution ?? model.resolutions[0]).toLowerCase(),
    resolutionField: 'resolution',
    aspectField: 'aspect_ratio',
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
