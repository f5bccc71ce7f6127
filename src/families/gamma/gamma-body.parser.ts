import { CatalogEntry, secondsOf } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel } from '../family';
import { assertModelDuration } from '../shared/model-durations';
import type { GammaTaskRequest } from './gamma-protocol';
import { ASSET_REF, GAMMA_MAX_PROMPT, GAMMA_MAX_REFERENCES, GammaMetadataDto, GammaVideoRequestDto } from './gamma-request.dto';

/** The provider's default resolution, for an entry that lists none. */
const PROVIDER_RESOLUTION = '720p';

/** A reference image of the request: a verified asset, or a plain URL. */
export interface ParsedReference {
  url: string;
  /** Set for `asset://<id>` references. */
  assetId?: string;
  /** The request field, named in a 400. */
  field: string;
}

export interface ParsedGammaBody {
  model: string;
  request: GammaTaskRequest;
  references: ParsedReference[];
}

/** Not given, in a body its schema already checked: missing, or an empty string. */
const given = <T>(value: T | '' | undefined): value is T => value !== undefined && value !== '';

/**
 * The rules of a family C body beyond its schema (GammaVideoRequestDto, already checked), read from
 * the model's catalog entry, and the defaults: its prompt length, its lengths (the default when
 * none is sent), its resolutions (the first the default), its ratios (the first sent when the
 * client names none; an entry listing none leaves the ratio to the provider), its modes
 * (text-to-video without references, reference-to-video with them) and how many references it takes.
 * A new family C model is its entry alone.
 */
export function parseGammaBody(body: GammaVideoRequestDto, { entry }: Pick<CatalogModel, 'entry'>): ParsedGammaBody {
  const model = entry.id;
  const maxPrompt = entry.promptMaxLength ?? GAMMA_MAX_PROMPT;
  if (body.prompt.length > maxPrompt) throw AppError.invalid(`prompt must be at most ${maxPrompt} characters`, 'prompt');
  const duration = given(body.duration) ? durationOf(body.duration, entry) : entry.defaultDuration;
  const metadata: GammaMetadataDto = given(body.metadata) ? body.metadata : {};
  const content = given(metadata.content) ? metadata.content : [];
  const maxReferences = entry.maxReferenceImages ?? GAMMA_MAX_REFERENCES;
  if (content.length > maxReferences)
    throw AppError.invalid(`metadata.content may hold at most ${maxReferences} reference images`, 'metadata.content');
  if (content.length > 0 && !entry.modes.includes('reference-to-video'))
    throw AppError.invalid(`${model} takes no reference images (it is text-to-video only)`, 'metadata.content');
  if (content.length === 0 && !entry.modes.includes('text-to-video'))
    throw AppError.invalid(`${model} needs reference images in metadata.content (it is not a text-to-video model)`, 'metadata.content');

  const resolutions = entry.resolutions.map((resolution) => resolution.toLowerCase());
  const resolution = given(metadata.resolution) ? metadata.resolution : (resolutions[0] ?? PROVIDER_RESOLUTION);
  if (resolutions.length > 0 && !resolutions.includes(resolution)) {
    throw AppError.invalid(
      `metadata.resolution ${resolution} is not supported by ${model} (use ${orList(ascending(resolutions))})`,
      'metadata.resolution',
    );
  }
  if (given(metadata.ratio) && entry.aspectRatios.length > 0 && !entry.aspectRatios.includes(metadata.ratio))
    throw AppError.invalid(`metadata.ratio must be one of ${entry.aspectRatios.join(', ')} for ${model}`, 'metadata.ratio');

  const request: GammaTaskRequest = {
    prompt: body.prompt,
    references: [],
    resolution: resolution as GammaTaskRequest['resolution'],
    duration,
  };
  const ratio = given(metadata.ratio) ? metadata.ratio : entry.aspectRatios[0];
  if (ratio !== undefined) request.ratio = ratio;
  if (given(metadata.seed)) request.seed = metadata.seed;
  if (given(metadata.watermark)) request.watermark = metadata.watermark;

  const references: ParsedReference[] = content.map((item, index) => {
    const field = `metadata.content[${index}].image_url.url`;
    const assetId = ASSET_REF.exec(item.image_url.url)?.[1];
    return assetId ? { url: item.image_url.url, assetId, field } : { url: item.image_url.url, field };
  });
  request.references = references.map((reference) => reference.url);
  return { model, request, references };
}

/** One of the entry's lengths; a range in the interface's words (`between 4 and 15 seconds`). */
function durationOf(duration: number, entry: CatalogEntry): number {
  const seconds = secondsOf(entry.durations);
  if (Number.isInteger(duration) && seconds.includes(duration)) return duration;
  if (!Array.isArray(entry.durations)) {
    const { min, max } = entry.durations as { min: number; max: number };
    throw AppError.invalid(`duration must be an integer between ${min} and ${max} seconds`, 'duration');
  }
  assertModelDuration(duration, seconds, entry.id);
  return duration;
}

const ascending = (resolutions: readonly string[]): string[] => [...resolutions].sort((a, b) => parseInt(a, 10) - parseInt(b, 10));

/** `a`, `a or b`, `a, b or c`. */
const orList = (items: readonly string[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}` : (items[0] ?? '');
