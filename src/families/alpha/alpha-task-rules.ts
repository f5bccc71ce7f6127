import type { CatalogEntry } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import { utf16LengthMessage } from '../../common/http/validation';
import type { CatalogModel } from '../family';
import { nearestAspectRatio, parsePixelSize } from '../pixel-size';
import { durationWithinEntry } from '../shared/entry-rules';
import {
  ALPHA_ASPECT_RATIOS,
  ALPHA_PROVIDER_DEFAULT_RATIO,
  AlphaQuality,
  FAST_MOTION_DURATION,
  isAlphaQuality,
  nearestQuality,
  parseAlphaModel,
} from './alpha-models';
import type { CreateVideoDto } from './alpha-request.dto';

const FALLBACK_QUALITY: AlphaQuality = '720p';

/**
 * What a family A model takes, read from its catalog entry: lengths, qualities (`resolutions`, the
 * first the default), aspect ratios, audio, modes and prompt length from the entry; fast motion and
 * the lengths it cannot make at 1080p from its route's options (`fast_motion`, `no_1080p_durations`).
 * A new `alpha/<version>` is its entry alone.
 */
export interface AlphaModel {
  /** The version as the provider's messages name it: the id after `alpha/` (`v5.5`). */
  version: string;
  fastMotion: boolean;
  no1080pDurations: readonly number[];
  entry: CatalogEntry;
}

export function alphaModelOf({ entry, route }: CatalogModel): AlphaModel {
  const no1080p = route.options?.no_1080p_durations;
  return {
    version: parseAlphaModel(entry.id) ?? entry.id,
    fastMotion: route.options?.fast_motion === true,
    no1080pDurations: Array.isArray(no1080p) ? (no1080p as number[]) : [],
    entry,
  };
}

/** Family A's route options: `fast_motion` (boolean), `no_1080p_durations` (whole seconds); the first one refused, or null. */
export function checkAlphaRouteOptions(options: Readonly<Record<string, unknown>>): { field: string; message: string } | null {
  for (const [name, value] of Object.entries(options)) {
    if (name === 'fast_motion') {
      if (typeof value !== 'boolean') return { field: name, message: 'fast_motion must be true or false' };
    } else if (name === 'no_1080p_durations') {
      if (!Array.isArray(value) || !value.every((seconds) => Number.isInteger(seconds) && (seconds as number) > 0))
        return { field: name, message: 'no_1080p_durations must be a list of whole seconds (e.g. [10])' };
    } else {
      return { field: name, message: `${name} is not a family A route option (fast_motion and no_1080p_durations are)` };
    }
  }
  return null;
}

/** Where a submit's image came from (`image`, `images`, `input_reference`), or `metadata.img_id`. */
export type AlphaImageField = 'image' | 'images' | 'input_reference' | 'metadata.img_id';

/** What the rules make of a validated body: everything but the image. */
export interface AlphaSettled {
  mode: 'text' | 'image';
  duration: number;
  quality: AlphaQuality;
  /** Text-to-video only; absent: the provider's default (16:9). */
  aspectRatio?: string;
  fastMotion: boolean;
  /** Sent as `generate_audio_switch` (when asked, or always for a model that always makes sound) and billed at the audio tier. */
  audio: boolean;
}

/**
 * A family A model's rules across fields, before any charge: each a 400 naming the field the
 * client sent, with the interface's messages. `imageField`: the field an image came in, if any.
 */
export function settleAlphaRequest(name: string, model: AlphaModel, dto: CreateVideoDto, imageField: AlphaImageField | null): AlphaSettled {
  const { entry, version } = model;
  const metadata = dto.metadata ?? {};
  if (dto.prompt !== undefined && entry.promptMaxLength !== null && dto.prompt.length > entry.promptMaxLength)
    throw AppError.invalid(utf16LengthMessage('prompt', dto.prompt, entry.promptMaxLength), 'prompt');
  const mode = imageField ? 'image' : 'text';
  if (mode === 'text' && !entry.modes.includes('text-to-video'))
    throw AppError.invalid(`${name} is image-to-video only: image is required`, 'image');
  if (mode === 'image' && !entry.modes.includes('image-to-video'))
    throw AppError.invalid(`${name} is text-to-video only: it takes no image`, imageField!);
  if (mode === 'text' && !dto.prompt?.trim()) throw AppError.invalid('prompt is required', 'prompt');

  const pixelSize = parsePixelSize(dto.size);
  const quality = settleQuality(name, entry, dto, pixelSize);
  const duration = durationWithinEntry(dto.duration, entry, name);
  if (metadata.generate_audio_switch && entry.audio === 'none') {
    throw AppError.invalid(`model ${version} does not support audio generation`, 'metadata.generate_audio_switch');
  }
  if (metadata.generate_audio_switch === false && entry.audio === 'always')
    throw AppError.invalid(`model ${version} always generates audio`, 'metadata.generate_audio_switch');
  const fastMotion = metadata.motion_mode === 'fast';
  if (fastMotion && !model.fastMotion) throw AppError.invalid(`model ${version} does not support fast motion`, 'metadata.motion_mode');
  if (fastMotion && (duration !== FAST_MOTION_DURATION || quality === '1080p')) {
    throw AppError.invalid('fast motion only supports 360p/540p/720p at 5s', 'metadata.motion_mode');
  }
  if (quality === '1080p' && model.no1080pDurations.includes(duration)) {
    // The interface's message shape: `combination <quality> / <duration> not supported`.
    throw AppError.invalid(`combination ${quality} / ${duration} not supported`, 'duration');
  }
  const audio = entry.audio === 'always' || metadata.generate_audio_switch === true;
  if (mode === 'image') return { mode, duration, quality, fastMotion, audio };

  // An entry listing no ratios takes every ratio the provider does.
  const ratios = entry.aspectRatios.length > 0 ? [...entry.aspectRatios] : ALPHA_ASPECT_RATIOS;
  if (metadata.aspect_ratio && !ratios.includes(metadata.aspect_ratio)) {
    throw AppError.invalid(
      `model ${version} does not support aspect_ratio ${metadata.aspect_ratio} (allowed: ${ratios.join(', ')})`,
      'metadata.aspect_ratio',
    );
  }
  // A pixel size (what OpenAI clients send) also says which way round the video is; else the
  // entry's default, sent only when it is not what the provider makes anyway.
  const aspectRatio =
    metadata.aspect_ratio ??
    (pixelSize
      ? nearestAspectRatio(pixelSize.width, pixelSize.height, ratios)
      : ratios[0] !== ALPHA_PROVIDER_DEFAULT_RATIO
        ? ratios[0]
        : undefined);
  return { mode, duration, quality, fastMotion, audio, ...(aspectRatio ? { aspectRatio } : {}) };
}

/** `metadata.quality`, else `resolution`, else `size` (a pixel size's nearest quality), else the entry's default; one the entry lists. */
function settleQuality(
  name: string,
  entry: CatalogEntry,
  dto: CreateVideoDto,
  pixelSize: { width: number; height: number } | null,
): AlphaQuality {
  const asked: Array<[string, string | undefined]> = [
    ['metadata.quality', dto.metadata?.quality],
    ['resolution', dto.resolution?.toLowerCase()],
    ['size', pixelSize ? nearestQuality(pixelSize.width, pixelSize.height) : dto.size?.toLowerCase()],
  ];
  const given = asked.find((candidate): candidate is [string, string] => candidate[1] !== undefined);
  const first = entry.resolutions[0]?.toLowerCase();
  if (!given) return first !== undefined && isAlphaQuality(first) ? first : FALLBACK_QUALITY;
  const [field, quality] = given;
  const offered = entry.resolutions.map((resolution) => resolution.toLowerCase());
  if (offered.length > 0 && !offered.includes(quality))
    throw AppError.invalid(`${field}: ${name} renders ${entry.resolutions.join(', ')} only`, field);
  return quality as AlphaQuality;
}
