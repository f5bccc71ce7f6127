import { AppError } from '../../common/app-error';
import { absent, integerOf, isObject } from '../../common/body-values';
import { assertBodyShape, BodyShape, modelOf } from '../../common/validation';
import {
  BETA_MODELS,
  BetaAudioSetting,
  BetaCapability,
  BetaMedia,
  BetaMediaType,
  BetaResolution,
  BetaTaskRequest,
} from './beta-request';
import { truncateBetaPrompt } from './beta-prompt';

export const BETA_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];
const MEDIA_TYPES: BetaMediaType[] = ['first_frame', 'reference_image', 'video'];
const MAX_SEED = 2147483647;
const MAX_R2V_IMAGES = 9;
const MAX_EDIT_IMAGES = 5;
export const DEFAULT_DURATION = 5;
/**
 * video-edit output follows the input video (at most 15 s), which is only known after generation;
 * it is billed as the longest possible output, 15 s.
 */
export const VIDEO_EDIT_BILLED_SECONDS = 15;

/** The JSON type of every family B field (service interface), checked before anything reads the body. */
const BETA_BODY_SHAPE: BodyShape = {
  model: 'string',
  prompt: 'string',
  size: 'string',
  duration: 'integer',
  // OpenAI's name for duration.
  seconds: 'integer',
  input_reference: 'string',
  metadata: {
    ratio: 'string',
    watermark: 'boolean',
    seed: 'integer',
    audio_setting: 'string',
    input: { media: ['array', 'an array of {type, url} elements'] },
  },
};

/** Family B action names, shown as `data.action` of the unified form. */
export const BETA_ACTIONS: Record<BetaCapability, string> = {
  t2v: 'textGenerate',
  i2v: 'imageGenerate',
  r2v: 'referenceGenerate',
  'video-edit': 'videoEdit',
};

export interface MediaToCheck extends BetaMedia {
  /** The request field the URL came from, named in a 400. */
  field: string;
}

export interface ParsedBetaBody {
  model: string;
  request: BetaTaskRequest;
  media: MediaToCheck[];
  promptTruncated: boolean;
}

function booleanOf(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return null;
}

/** The model, checked first: it decides which family handles the body. */
export function parseBetaModel(body: Record<string, unknown>): { model: string; capability: BetaCapability } {
  const name = modelOf(body);
  const model = name.toLowerCase();
  const capability = BETA_MODELS[model];
  if (!capability) throw AppError.invalid(`unknown model: ${name}`, 'model');
  return { model, capability };
}

/**
 * Checks a family B body and applies the defaults (size 1080P, duration 5, ratio 16:9 for t2v
 * and r2v). Parameters a model does not use are ignored, as the interface says of duration for
 * video-edit: ratio for i2v and video-edit, audio_setting outside video-edit.
 */
export function parseBetaBody(body: Record<string, unknown>): ParsedBetaBody {
  const { model, capability } = parseBetaModel(body);
  assertBodyShape(body, BETA_BODY_SHAPE);
  if (absent(body.prompt) || (typeof body.prompt === 'string' && body.prompt.trim() === '')) throw AppError.invalid('prompt is required', 'prompt');
  if (typeof body.prompt !== 'string') throw AppError.invalid('prompt must be a string', 'prompt');
  const { prompt, truncated } = truncateBetaPrompt(body.prompt);

  const size = parseSize(body.size);
  if (!isObject(body.metadata) && !absent(body.metadata)) throw AppError.invalid('metadata must be an object', 'metadata');
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const media = parseMedia(metadata, body.input_reference);
  checkMediaCounts(model, capability, media);

  const request: BetaTaskRequest = {
    capability,
    prompt,
    media: media.map(({ type, url }) => ({ type, url })),
    resolution: size.resolution,
    duration: capability === 'video-edit' ? null : parseDuration(body.duration ?? body.seconds),
    ratio: capability === 't2v' || capability === 'r2v' ? parseRatio(metadata.ratio, size.ratio) : null,
    watermark: parseWatermark(metadata.watermark),
    seed: parseSeed(metadata.seed),
    audioSetting: capability === 'video-edit' ? parseAudioSetting(metadata.audio_setting) : null,
  };
  return { model, request, media, promptTruncated: truncated };
}

/** `720P`/`1080P` (any case); the pixel form an OpenAI client sends maps by its short edge. */
function parseSize(value: unknown): { resolution: BetaResolution; ratio?: string } {
  if (absent(value)) return { resolution: '1080P' };
  const text = String(value).trim().toUpperCase();
  if (text === '720P' || text === '1080P') return { resolution: text };
  const pixels = /^(\d+)X(\d+)$/.exec(text);
  if (pixels) {
    const [width, height] = [Number(pixels[1]), Number(pixels[2])];
    const short = Math.min(width, height);
    if (short === 720 || short === 1080) {
      const ratio = BETA_RATIOS.find((candidate) => {
        const [w, h] = candidate.split(':').map(Number);
        return width * h === height * w;
      });
      return { resolution: short === 720 ? '720P' : '1080P', ratio };
    }
  }
  throw AppError.invalid('size must be 720P or 1080P', 'size');
}

function parseDuration(value: unknown): number {
  if (absent(value)) return DEFAULT_DURATION;
  const duration = integerOf(value);
  if (duration === null || duration < 3 || duration > 15) throw AppError.invalid('duration must be an integer between 3 and 15 (seconds)', 'duration');
  return duration;
}

function parseRatio(value: unknown, fromSize?: string): string {
  if (absent(value)) return fromSize ?? '16:9';
  if (typeof value !== 'string' || !BETA_RATIOS.includes(value)) {
    throw AppError.invalid(`metadata.ratio must be one of ${BETA_RATIOS.join(', ')}`, 'metadata.ratio');
  }
  return value;
}

function parseWatermark(value: unknown): boolean | null {
  if (absent(value)) return null;
  const watermark = booleanOf(value);
  if (watermark === null) throw AppError.invalid('metadata.watermark must be a boolean', 'metadata.watermark');
  return watermark;
}

function parseSeed(value: unknown): number | null {
  if (absent(value)) return null;
  const seed = integerOf(value);
  if (seed === null || seed < 0 || seed > MAX_SEED) throw AppError.invalid(`metadata.seed must be an integer between 0 and ${MAX_SEED}`, 'metadata.seed');
  return seed;
}

function parseAudioSetting(value: unknown): BetaAudioSetting {
  if (absent(value)) return 'auto';
  if (value !== 'auto' && value !== 'origin') throw AppError.invalid('metadata.audio_setting must be auto or origin', 'metadata.audio_setting');
  return value;
}

/** `input_reference` first (as the i2v first frame), then `metadata.input.media` in the client's order. */
function parseMedia(metadata: Record<string, unknown>, inputReference: unknown): MediaToCheck[] {
  const media: MediaToCheck[] = [];
  if (!absent(inputReference)) {
    if (typeof inputReference !== 'string') throw AppError.invalid('input_reference must be a publicly accessible http(s) URL of the first-frame image', 'input_reference');
    media.push({ type: 'first_frame', url: inputReference.trim(), field: 'input_reference' });
  }
  if (absent(metadata.input)) return media;
  if (!isObject(metadata.input)) throw AppError.invalid('metadata.input must be an object', 'metadata.input');
  const list = metadata.input.media;
  if (absent(list)) return media;
  if (!Array.isArray(list)) throw AppError.invalid('metadata.input.media must be an array of {type, url} elements', 'metadata.input.media');
  list.forEach((element, index) => {
    const field = `metadata.input.media[${index}]`;
    if (!isObject(element)) throw AppError.invalid(`${field} must be an object with type and url`, field);
    if (typeof element.type !== 'string' || !MEDIA_TYPES.includes(element.type as BetaMediaType)) {
      throw AppError.invalid(`${field}.type must be one of ${MEDIA_TYPES.join(', ')}`, `${field}.type`);
    }
    if (typeof element.url !== 'string' || element.url.trim() === '') throw AppError.invalid(`${field}.url is required`, `${field}.url`);
    media.push({ type: element.type as BetaMediaType, url: element.url.trim(), field: `${field}.url` });
  });
  return media;
}

/** Which media each model takes, and how many (interface: Family B models and media elements). */
function checkMediaCounts(model: string, capability: BetaCapability, media: MediaToCheck[]): void {
  const count = (type: BetaMediaType) => media.filter((element) => element.type === type).length;
  const fromInputReference = media.some((element) => element.field === 'input_reference');
  if (fromInputReference && capability !== 'i2v') throw AppError.invalid(`input_reference is only supported by beta-1.0-i2v, not ${model}`, 'input_reference');
  const allowed: Record<BetaCapability, BetaMediaType[]> = {
    t2v: [],
    i2v: ['first_frame'],
    r2v: ['reference_image'],
    'video-edit': ['video', 'reference_image'],
  };
  const wrong = media.find((element) => !allowed[capability].includes(element.type));
  if (wrong) {
    const accepted = allowed[capability].length ? `only ${allowed[capability].join(' and ')} media` : 'no media';
    throw AppError.invalid(`${model} accepts ${accepted}; ${wrong.field.replace(/\.url$/, '')} is of type ${wrong.type}`, wrong.field.replace(/\.url$/, ''));
  }
  switch (capability) {
    case 'i2v': {
      const frames = count('first_frame');
      if (frames === 0) {
        throw AppError.invalid('beta-1.0-i2v requires a first-frame image: input_reference or one metadata.input.media element of type first_frame', 'input_reference');
      }
      if (frames > 1) {
        throw AppError.invalid('beta-1.0-i2v takes exactly one first-frame image: send input_reference or one first_frame media element, not both', 'metadata.input.media');
      }
      return;
    }
    case 'r2v': {
      const images = count('reference_image');
      if (images === 0) throw AppError.invalid('beta-1.0-r2v requires at least 1 reference_image in metadata.input.media', 'metadata.input.media');
      if (images > MAX_R2V_IMAGES) throw AppError.invalid(`beta-1.0-r2v accepts at most ${MAX_R2V_IMAGES} reference images, got ${images}`, 'metadata.input.media');
      return;
    }
    case 'video-edit': {
      const videos = count('video');
      if (videos !== 1) {
        throw AppError.invalid(`metadata.input.media must contain exactly one element of type video for beta-1.0-video-edit, got ${videos}`, 'metadata.input.media');
      }
      const images = count('reference_image');
      if (images > MAX_EDIT_IMAGES) throw AppError.invalid(`beta-1.0-video-edit accepts at most ${MAX_EDIT_IMAGES} reference images, got ${images}`, 'metadata.input.media');
      return;
    }
    default:
      return;
  }
}
