import { AppError } from '../../common/errors/app-error';
import { BetaAudioSetting, BetaCapability, BetaMedia, BetaMediaType, BetaResolution, BetaTaskRequest } from './beta-request';
import { BETA_RATIOS, BetaMetadataDto, BetaVideoRequestDto } from './beta-request.dto';
import { truncateBetaPrompt } from './beta-prompt';

export { BETA_RATIOS } from './beta-request.dto';
const MAX_R2V_IMAGES = 9;
const MAX_EDIT_IMAGES = 5;
export const DEFAULT_DURATION = 5;
/**
 * video-edit output follows the input video (at most 15 s), which is only known after generation;
 * it is billed as the longest possible output, 15 s.
 */
export const VIDEO_EDIT_BILLED_SECONDS = 15;

/** Not given, in a body its schema already checked: missing, or an empty string (an empty form field). */
const given = <T>(value: T | '' | undefined): value is T => value !== undefined && value !== '';

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

/**
 * The rules of a family B body beyond its schema (BetaVideoRequestDto, already checked), and the
 * defaults (size 1080P, duration 5, ratio 16:9 for t2v and r2v). Parameters a model does not use
 * are ignored, as the interface says of duration for video-edit: ratio for i2v and video-edit,
 * audio_setting outside video-edit.
 */
export function parseBetaBody(body: BetaVideoRequestDto, model: string, capability: BetaCapability): ParsedBetaBody {
  const { prompt, truncated } = truncateBetaPrompt(body.prompt);

  const size = parseSize(body.size);
  const metadata: BetaMetadataDto = given(body.metadata) ? body.metadata : {};
  const media = parseMedia(metadata, body.input_reference);
  checkMediaCounts(model, capability, media);

  const duration = body.duration;
  const request: BetaTaskRequest = {
    capability,
    prompt,
    media: media.map(({ type, url }) => ({ type, url })),
    resolution: size.resolution,
    duration: capability === 'video-edit' ? null : given(duration) ? duration : DEFAULT_DURATION,
    ratio: capability === 't2v' || capability === 'r2v' ? parseRatio(metadata.ratio, size.ratio) : null,
    watermark: given(metadata.watermark) ? metadata.watermark : null,
    seed: given(metadata.seed) ? metadata.seed : null,
    audioSetting: capability === 'video-edit' ? parseAudioSetting(metadata.audio_setting) : null,
  };
  return { model, request, media, promptTruncated: truncated };
}

/** `720P`/`1080P` (any case); the pixel form an OpenAI client sends maps by its short edge. */
function parseSize(value: string | undefined): { resolution: BetaResolution; ratio?: string } {
  if (!given(value)) return { resolution: '1080P' };
  const text = value.trim().toUpperCase();
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

function parseRatio(value: string | undefined, fromSize?: string): string {
  if (!given(value)) return fromSize ?? '16:9';
  if (!BETA_RATIOS.includes(value)) throw AppError.invalid(`metadata.ratio must be one of ${BETA_RATIOS.join(', ')}`, 'metadata.ratio');
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

/** Which media each model takes, and how many (interface: Family B models and media elements). */
function checkMediaCounts(model: string, capability: BetaCapability, media: MediaToCheck[]): void {
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
          'beta-1.0-i2v requires a first-frame image: input_reference or one metadata.input.media element of type first_frame',
          'input_reference',
        );
      }
      if (frames > 1) {
        throw AppError.invalid(
          'beta-1.0-i2v takes exactly one first-frame image: send input_reference or one first_frame media element, not both',
          'metadata.input.media',
        );
      }
      return;
    }
    case 'r2v': {
      const images = count('reference_image');
      if (images === 0)
        throw AppError.invalid('beta-1.0-r2v requires at least 1 reference_image in metadata.input.media', 'metadata.input.media');
      if (images > MAX_R2V_IMAGES)
        throw AppError.invalid(`beta-1.0-r2v accepts at most ${MAX_R2V_IMAGES} reference images, got ${images}`, 'metadata.input.media');
      return;
    }
    case 'video-edit': {
      const videos = count('video');
      if (videos !== 1) {
        throw AppError.invalid(
          `metadata.input.media must contain exactly one element of type video for beta-1.0-video-edit, got ${videos}`,
          'metadata.input.media',
        );
      }
      const images = count('reference_image');
      if (images > MAX_EDIT_IMAGES)
        throw AppError.invalid(
          `beta-1.0-video-edit accepts at most ${MAX_EDIT_IMAGES} reference images, got ${images}`,
          'metadata.input.media',
        );
      return;
    }
    default:
      return;
  }
}
