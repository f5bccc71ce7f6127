import { CatalogEntry, ModelMode, secondsOf } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel } from '../family';
import { assertModelDuration } from '../shared/model-durations';
import { BETA_PROMPT_BUDGET, truncateBetaPrompt } from './beta-prompt';
import { BetaAudioSetting, BetaCapability, BetaMedia, BetaMediaType, BetaResolution, BetaTaskRequest } from './beta-request';
import { BETA_RATIOS, BetaMetadataDto, BetaVideoRequestDto } from './beta-request.dto';

export { BETA_RATIOS } from './beta-request.dto';
/** The interface's limits on reference images, for an entry that names no `max_reference_images`. */
const MAX_R2V_IMAGES = 9;
const MAX_EDIT_IMAGES = 5;
/** The provider's resolutions, for an entry that lists none. */
const PROVIDER_RESOLUTIONS = ['1080P', '720P'];

/** Not given, in a body its schema already checked: missing, or an empty string (an empty form field). */
const given = <T>(value: T | '' | undefined): value is T => value !== undefined && value !== '';

/** Family B action names, shown as `data.action` of the unified form. */
export const BETA_ACTIONS: Record<BetaCapability, string> = {
  t2v: 'textGenerate',
  i2v: 'imageGenerate',
  r2v: 'referenceGenerate',
  'video-edit': 'videoEdit',
};

/** Each capability's mode in the catalog's vocabulary. */
export const BETA_MODE_OF: Record<BetaCapability, ModelMode> = {
  t2v: 'text-to-video',
  i2v: 'image-to-video',
  r2v: 'reference-to-video',
  'video-edit': 'video-edit',
};

/**
 * What a family B model takes, read from its catalog entry: its capabilities from `modes` (one, as
 * the builtin models, or several, told apart by the media a request carries), lengths and default,
 * resolutions (the first the default), ratios (the first the default), the prompt budget and the
 * reference images. A new family B model is its entry alone.
 */
export interface BetaModel {
  /** In the entry's order. */
  capabilities: readonly BetaCapability[];
  entry: CatalogEntry;
}

export function betaModelOf({ entry }: Pick<CatalogModel, 'entry'>): BetaModel {
  const capabilities = (Object.keys(BETA_MODE_OF) as BetaCapability[]).filter((capability) =>
    entry.modes.includes(BETA_MODE_OF[capability]),
  );
  capabilities.sort((a, b) => entry.modes.indexOf(BETA_MODE_OF[a]) - entry.modes.indexOf(BETA_MODE_OF[b]));
  return { capabilities, entry };
}

/**
 * video-edit output follows the input video, which is only known after generation; it is billed
 * as the longest the model makes (the builtin model: 15 s).
 */
export function videoEditBilledSeconds(entry: Pick<CatalogEntry, 'durations'>): number {
  return Math.max(...secondsOf(entry.durations));
}

/** The resolutions a model renders, as the provider spells them (`1080P`), the first its default. */
export function betaResolutionsOf(entry: Pick<CatalogEntry, 'resolutions'>): string[] {
  return entry.resolutions.length > 0 ? entry.resolutions.map((resolution) => resolution.toUpperCase()) : PROVIDER_RESOLUTIONS;
}

/** The ratios a model makes (text and reference to video), the first its default; an entry listing none takes the provider's. */
export const betaRatiosOf = (entry: Pick<CatalogEntry, 'aspectRatios'>): string[] =>
  entry.aspectRatios.length > 0 ? [...entry.aspectRatios] : BETA_RATIOS;

export interface MediaToCheck extends BetaMedia {
  /** The request field the URL came from, named in a 400. */
  field: string;
}

export interface ParsedBetaBody {
  model: string;
  request: BetaTaskRequest;
  media: MediaToCheck[];
  promptTruncated: boolean;
  /** The model's prompt budget (units: a Chinese character counts 2). */
  promptBudget: number;
}

/**
 * The rules of a family B body beyond its schema (BetaVideoRequestDto, already checked), read from
 * the model's entry, and the defaults (the entry's first size, its default length, its first ratio
 * for t2v and r2v). Parameters a model does not use are ignored, as the interface says of duration
 * for video-edit: ratio for i2v and video-edit, audio_setting outside video-edit.
 */
export function parseBetaBody(body: BetaVideoRequestDto, model: string, betaModel: BetaModel): ParsedBetaBody {
  const { entry } = betaModel;
  const duration = given(body.duration) ? durationOf(body.duration, entry, model) : entry.defaultDuration;
  const promptBudget = entry.promptMaxLength ?? BETA_PROMPT_BUDGET;
  const { prompt, truncated } = truncateBetaPrompt(body.prompt, promptBudget);

  const size = parseSize(body.size, entry);
  const metadata: BetaMetadataDto = given(body.metadata) ? body.metadata : {};
  const media = parseMedia(metadata, body.input_reference);
  const capability = capabilityOf(model, betaModel, media);
  checkMediaCounts(model, capability, media, entry.maxReferenceImages);

  const request: BetaTaskRequest = {
    capability,
    prompt,
    media: media.map(({ type, url }) => ({ type, url })),
    resolution: size.resolution,
    duration: capability === 'video-edit' ? null : duration,
    ratio: capability === 't2v' || capability === 'r2v' ? parseRatio(metadata.ratio, size.ratio, betaRatiosOf(entry)) : null,
    watermark: given(metadata.watermark) ? metadata.watermark : null,
    seed: given(metadata.seed) ? metadata.seed : null,
    audioSetting: capability === 'video-edit' ? parseAudioSetting(metadata.audio_setting) : null,
  };
  return { model, request, media, promptTruncated: truncated, promptBudget };
}

/** One of the entry's lengths (checked for video-edit too, which ignores it), in the interface's words for a range. */
function durationOf(duration: number, entry: CatalogEntry, model: string): number {
  const seconds = secondsOf(entry.durations);
  if (Number.isInteger(duration) && seconds.includes(duration)) return duration;
  if (!Array.isArray(entry.durations)) {
    const { min, max } = entry.durations as { min: number; max: number };
    throw AppError.invalid(`duration must be an integer between ${min} and ${max} (seconds)`, 'duration');
  }
  assertModelDuration(duration, seconds, model);
  return duration;
}

/** The capability a request asks for: a model's one, or (a model of several) the one its media say. */
function capabilityOf(model: string, { capabilities }: BetaModel, media: MediaToCheck[]): BetaCapability {
  if (capabilities.length === 0)
    throw AppError.invalid(
      `${model} has none of family B's modes (text-to-video, image-to-video, reference-to-video, video-edit)`,
      'model',
    );
  if (capabilities.length === 1) return capabilities[0];
  const asking =
    media.find((element) => element.type === 'video') ??
    media.find((element) => element.type === 'first_frame') ??
    media.find((element) => element.type === 'reference_image');
  const wanted: BetaCapability = !asking ? 't2v' : asking.type === 'video' ? 'video-edit' : asking.type === 'first_frame' ? 'i2v' : 'r2v';
  if (capabilities.includes(wanted)) return wanted;
  const field = asking ? asking.field.replace(/\.url$/, '') : 'metadata.input.media';
  throw AppError.invalid(
    `${model} does not take ${BETA_MODE_OF[wanted]} requests (it takes ${capabilities.map((capability) => BETA_MODE_OF[capability]).join(', ')})`,
    field,
  );
}

/** One of the model's sizes (`720P`/`1080P`, any case); the pixel form an OpenAI client sends maps by its short edge. */
function parseSize(value: string | undefined, entry: CatalogEntry): { resolution: BetaResolution; ratio?: string } {
  const offered = betaResolutionsOf(entry);
  if (!given(value)) return { resolution: offered[0] };
  const text = value.trim().toUpperCase();
  if (offered.includes(text)) return { resolution: text };
  const pixels = /^(\d+)X(\d+)$/.exec(text);
  if (pixels) {
    const [width, height] = [Number(pixels[1]), Number(pixels[2])];
    const resolution = `${Math.min(width, height)}P`;
    if (offered.includes(resolution)) {
      const ratio = betaRatiosOf(entry).find((candidate) => {
        const [w, h] = candidate.split(':').map(Number);
        return width * h === height * w;
      });
      return { resolution, ratio };
    }
  }
  throw AppError.invalid(`size must be ${orList(ascending(offered))}`, 'size');
}

/** Sizes from the smallest: `720P`, `1080P`. */
const ascending = (sizes: readonly string[]): string[] => [...sizes].sort((a, b) => parseInt(a, 10) - parseInt(b, 10));

/** `a`, `a or b`, `a, b or c`. */
const orList = (items: readonly string[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}` : (items[0] ?? '');

function parseRatio(value: string | undefined, fromSize: string | undefined, ratios: readonly string[]): string {
  if (!given(value)) return fromSize ?? ratios[0];
  if (!ratios.includes(value)) throw AppError.invalid(`metadata.ratio must be one of ${ratios.join(', ')}`, 'metadata.ratio');
  return value;
}

function parseAudioSetting(value: string | undefined): BetaAudioSetting {
  if (!given(value)) return 'auto';
  if (value !== 'auto' && value !== 'origin')
    throw AppError.invalid('metadata.audio_setting must be auto or origin', 'metadata.audio_setting');
  return value;
}

/** `input_reference` first (as the i2v first frame), then `metadata.input.media` in the client's order. */
function parseMedia(metadata: BetaMetadataDto, inputReference: string | undefined): MediaToCheck[] {
  const media: MediaToCheck[] = [];
  if (given(inputReference)) media.push({ type: 'first_frame', url: inputReference.trim(), field: 'input_reference' });
  const list = given(metadata.input) ? metadata.input.media : undefined;
  if (!given(list)) return media;
  list.forEach((element, index) => {
    const field = `metadata.input.media[${index}]`;
    media.push({ type: element.type, url: element.url.trim(), field: `${field}.url` });
  });
  return media;
}

/**
 * Which media each capability takes, and how many (interface: Family B models and media elements);
 * `maxReferenceImages`: the entry's, else the interface's (r2v 9, video-edit 5).
 */
function checkMediaCounts(model: string, capability: BetaCapability, media: MediaToCheck[], maxReferenceImages: number | null): void {
  const count = (type: BetaMediaType) => media.filter((element) => element.type === type).length;
  const fromInputReference = media.some((element) => element.field === 'input_reference');
  if (fromInputReference && capability !== 'i2v')
    throw AppError.invalid(`input_reference is only supported by beta-1.0-i2v, not ${model}`, 'input_reference');
  const allowed: Record<BetaCapability, BetaMediaType[]> = {
    t2v: [],
    i2v: ['first_frame'],
    r2v: ['reference_image'],
    'video-edit': ['video', 'reference_image'],
  };
  const wrong = media.find((element) => !allowed[capability].includes(element.type));
  if (wrong) {
    const accepted = allowed[capability].length ? `only ${allowed[capability].join(' and ')} media` : 'no media';
    throw AppError.invalid(
      `${model} accepts ${accepted}; ${wrong.field.replace(/\.url$/, '')} is of type ${wrong.type}`,
      wrong.field.replace(/\.url$/, ''),
    );
  }
  switch (capability) {
    case 'i2v': {
      const frames = count('first_frame');
      if (frames === 0) {
        throw AppError.invalid(
          `${model} requires a first-frame image: input_reference or one metadata.input.media element of type first_frame`,
          'input_reference',
        );
      }
      if (frames > 1) {
        throw AppError.invalid(
          `${model} takes exactly one first-frame image: send input_reference or one first_frame media element, not both`,
          'metadata.input.media',
        );
      }
      return;
    }
    case 'r2v': {
      const images = count('reference_image');
      const max = maxReferenceImages ?? MAX_R2V_IMAGES;
      if (images === 0)
        throw AppError.invalid(`${model} requires at least 1 reference_image in metadata.input.media`, 'metadata.input.media');
      if (images > max) throw AppError.invalid(`${model} accepts at most ${max} reference images, got ${images}`, 'metadata.input.media');
      return;
    }
    case 'video-edit': {
      const videos = count('video');
      if (videos !== 1) {
        throw AppError.invalid(
          `metadata.input.media must contain exactly one element of type video for ${model}, got ${videos}`,
          'metadata.input.media',
        );
      }
      const images = count('reference_image');
      const max = maxReferenceImages ?? MAX_EDIT_IMAGES;
      if (images > max) throw AppError.invalid(`${model} accepts at most ${max} reference images, got ${images}`, 'metadata.input.media');
      return;
    }
    default:
      return;
  }
}
