import { AppError } from '../../common/errors/app-error';
import type { GammaTaskRequest } from './gamma-protocol';
import { ASSET_REF, GAMMA_MODELS, GammaMetadataDto, GammaVideoRequestDto } from './gamma-request.dto';

export { GAMMA_MODELS } from './gamma-request.dto';
export type GammaModel = (typeof GAMMA_MODELS)[number];
export const DEFAULT_DURATION = 5;
export const DEFAULT_RESOLUTION = '720p';

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

/** Not given, in a body its schema already checked: missing, or an empty string. */
const given = <T>(value: T | '' | undefined): value is T => value !== undefined && value !== '';

/**
 * The rules of a family C body beyond its schema (GammaVideoRequestDto, already checked), and the
 * defaults: duration 5, `metadata.resolution` 720p (no 1080p on the fast model).
 */
export function parseGammaBody(body: GammaVideoRequestDto, model: GammaModel): ParsedGammaBody {
  const metadata: GammaMetadataDto = given(body.metadata) ? body.metadata : {};
  const resolution = given(metadata.resolution) ? metadata.resolution : DEFAULT_RESOLUTION;
  if (resolution === '1080p' && model === 'gamma-2-0-fast') {
    throw AppError.invalid('metadata.resolution 1080p is not supported by gamma-2-0-fast (use 480p or 720p)', 'metadata.resolution');
  }
  const request: GammaTaskRequest = {
    prompt: body.prompt,
    references: [],
    resolution,
    duration: given(body.duration) ? body.duration : DEFAULT_DURATION,
  };
  if (given(metadata.ratio)) request.ratio = metadata.ratio;
  if (given(metadata.seed)) request.seed = metadata.seed;
  if (given(metadata.watermark)) request.watermark = metadata.watermark;

  const references: ParsedReference[] = (given(metadata.content) ? metadata.content : []).map((item, index) => {
    const field = `metadata.content[${index}].image_url.url`;
    const assetId = ASSET_REF.exec(item.image_url.url)?.[1];
    return assetId ? { url: item.image_url.url, assetId, field } : { url: item.image_url.url, field };
  });
  request.references = references.map((reference) => reference.url);
  return { model, request, references };
}
