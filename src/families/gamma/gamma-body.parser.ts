import { AppError } from '../../common/app-error';
import { absent, integerOf, isObject } from '../../common/body-values';
import { assertBodyShape, BodyShape, modelOf } from '../../common/validation';
import type { GammaTaskRequest } from './gamma-protocol';

export const GAMMA_MODELS = ['gamma-2-0', 'gamma-2-0-fast'] as const;
export type GammaModel = (typeof GAMMA_MODELS)[number];
const RESOLUTIONS = ['480p', '720p', '1080p'] as const;
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
const MIN_DURATION = 4;
const MAX_DURATION = 15;
export const DEFAULT_DURATION = 5;
export const DEFAULT_RESOLUTION = '720p';
const MAX_REFERENCES = 9;
const MAX_PROMPT = 5000;
const MAX_SEED = 2147483647;
const ASSET_REF = /^asset:\/\/([A-Za-z0-9][A-Za-z0-9._:-]{0,127})$/;

/** The JSON type of every family C field, checked before anything reads the body. */
const GAMMA_BODY_SHAPE: BodyShape = {
  model: 'string',
  prompt: 'string',
  duration: 'integer',
  metadata: { content: 'array', resolution: 'string', ratio: 'string', seed: 'integer', watermark: 'boolean' },
};

/** The family C model `name` denotes (the version is not case-sensitive), or null. */
export const gammaModelOf = (name: string): GammaModel | null =>
  (GAMMA_MODELS as readonly string[]).includes(name.toLowerCase()) ? (name.toLowerCase() as GammaModel) : null;

/** A reference image of the request: a verified asset, or a plain URL. */
export interface ParsedReference {
  url: string;
  /** Set for `asset://<id>` references. */
  assetId?: string;
  /** The request field, named in a 400. */
  field: string;
}

export interface ParsedGammaBody {
  model: GammaModel;
  request: GammaTaskRequest;
  references: ParsedReference[];
}

/**
 * Validates a family C body of POST /v1/video/generations (every 400 names its field):
 * `model`, `prompt`, `duration` 4..15 (default 5), `metadata.content` (up to 9 `image_url`
 * items, `asset://<id>` or http(s)), `metadata.resolution` (default 720p; no 1080p on the fast
 * model), `metadata.ratio`, `metadata.seed`, `metadata.watermark`.
 */
export function parseGammaBody(body: Record<string, unknown>): ParsedGammaBody {
  const name = modelOf(body);
  const model = gammaModelOf(name);
  if (!model) throw AppError.invalid(`unknown model: ${name}`, 'model');
  assertBodyShape(body, GAMMA_BODY_SHAPE);

  if (absent(body.prompt) || typeof body.prompt !== 'string' || !body.prompt.trim()) throw AppError.invalid('prompt is required', 'prompt');
  const prompt = body.prompt;
  if (prompt.length > MAX_PROMPT) throw AppError.invalid(`prompt must be at most ${MAX_PROMPT} characters`, 'prompt');

  let duration = DEFAULT_DURATION;
  if (!absent(body.duration)) {
    const value = integerOf(body.duration);
    if (value === null || value < MIN_DURATION || value > MAX_DURATION) {
      throw AppError.invalid(`duration must be an integer between ${MIN_DURATION} and ${MAX_DURATION} seconds`, 'duration');
    }
    duration = value;
  }

  if (!absent(body.metadata) && !isObject(body.metadata)) throw AppError.invalid('metadata must be an object', 'metadata');
  const metadata = (body.metadata ?? {}) as Record<string, unknown>;

  const resolution = absent(metadata.resolution) ? DEFAULT_RESOLUTION : String(metadata.resolution).toLowerCase();
  if (!(RESOLUTIONS as readonly string[]).includes(resolution)) {
    throw AppError.invalid(`metadata.resolution must be one of ${RESOLUTIONS.join(', ')}`, 'metadata.resolution');
  }
  if (resolution === '1080p' && model === 'gamma-2-0-fast') {
    throw AppError.invalid('metadata.resolution 1080p is not supported by gamma-2-0-fast (use 480p or 720p)', 'metadata.resolution');
  }

  const request: GammaTaskRequest = { prompt, references: [], resolution: resolution as GammaTaskRequest['resolution'], duration };
  if (!absent(metadata.ratio)) {
    if (typeof metadata.ratio !== 'string' || !RATIOS.includes(metadata.ratio)) {
      throw AppError.invalid(`metadata.ratio must be one of ${RATIOS.join(', ')}`, 'metadata.ratio');
    }
    request.ratio = metadata.ratio;
  }
  if (!absent(metadata.seed)) {
    const seed = integerOf(metadata.seed);
    if (seed === null || seed < 0 || seed > MAX_SEED) throw AppError.invalid(`metadata.seed must be an integer between 0 and ${MAX_SEED}`, 'metadata.seed');
    request.seed = seed;
  }
  if (!absent(metadata.watermark)) {
    if (typeof metadata.watermark !== 'boolean') throw AppError.invalid('metadata.watermark must be true or false', 'metadata.watermark');
    request.watermark = metadata.watermark;
  }

  const references = parseContent(metadata.content);
  request.references = references.map((reference) => reference.url);
  return { model, request, references };
}

function parseContent(content: unknown): ParsedReference[] {
  if (absent(content)) return [];
  if (!Array.isArray(content)) throw AppError.invalid('metadata.content must be an array', 'metadata.content');
  if (content.length > MAX_REFERENCES) throw AppError.invalid(`metadata.content may hold at most ${MAX_REFERENCES} reference images`, 'metadata.content');
  return content.map((item, index) => {
    const field = `metadata.content[${index}]`;
    if (!isObject(item)) throw AppError.invalid(`${field} must be an object`, field);
    if (item.type !== 'image_url') throw AppError.invalid(`${field}.type must be image_url`, `${field}.type`);
    if (!absent(item.role) && item.role !== 'reference_image') throw AppError.invalid(`${field}.role must be reference_image`, `${field}.role`);
    const urlField = `${field}.image_url.url`;
    const url = isObject(item.image_url) ? item.image_url.url : undefined;
    if (typeof url !== 'string' || !url.trim()) throw AppError.invalid(`${urlField} is required`, urlField);
    if (url.startsWith('asset://')) {
      const match = ASSET_REF.exec(url);
      if (!match) throw AppError.invalid(`${urlField} must be asset://<asset_id>`, urlField);
      return { url, assetId: match[1], field: urlField };
    }
    return { url, field: urlField };
  });
}
