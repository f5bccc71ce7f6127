import type { CatalogEntry, ModelMode } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel } from '../family';
import { parsePixelSize } from '../pixel-size';
import { assertPromptWithinEntry, durationWithinEntry } from '../shared/entry-rules';
import {
  MINIMAX_1080P_DURATION,
  MINIMAX_APIS,
  MINIMAX_IMAGE_ONLY_RESOLUTION,
  MINIMAX_V2_RATIOS,
  MINIMAX_V2_RESOLUTION_OF_SHORT_SIDE,
  MINIMAX_V2_WIRE_RESOLUTION,
  MinimaxApi,
  minimaxApiOf,
  MinimaxResolution,
} from './minimax-models';
import type { MinimaxVideoRequestDto } from './minimax-request.dto';
import { assertOneInputReference } from '../shared/input-reference';

/** Fields of the provider's body the gateway sets itself: `metadata` may not carry them. */
export const MINIMAX_GATEWAY_FIELDS = [
  'model',
  'prompt',
  'duration',
  'resolution',
  'first_frame_image',
  'last_frame_image',
  'callback_url',
];
/** What the gateway sets on the v2 API. */
export const MINIMAX_V2_GATEWAY_FIELDS = ['model', 'content', 'duration', 'resolution', 'ratio', 'callback_url'];
/** Resolutions MiniMax makes: an entry that lists none offers these. */
const MINIMAX_RESOLUTIONS: readonly MinimaxResolution[] = ['768P', '1080P', '512P'];

/**
 * What a MiniMax model takes, read from its catalog entry: lengths and their default, modes
 * (text-to-video, first and last frames) and resolutions on MiniMax's wire (`768p` -> `768P`; the
 * first its default, 512P for image-to-video only). A new MiniMax model is its entry alone.
 */
export interface MinimaxModel {
  entry: CatalogEntry;
  /** The route's API: its `api` option, else its upstream id's (MiniMax-H3: v2). */
  api: MinimaxApi;
  /** By how the task is made; the first is the default. */
  resolutions: { text: readonly MinimaxResolution[]; image: readonly MinimaxResolution[] };
}

export function minimaxModelOf({ entry, route }: Pick<CatalogModel, 'entry'> & Partial<Pick<CatalogModel, 'route'>>): MinimaxModel {
  const listed = entry.resolutions.map(wireResolution).filter((resolution): resolution is MinimaxResolution => resolution !== null);
  const image = listed.length > 0 ? listed : MINIMAX_RESOLUTIONS;
  return {
    entry,
    api: minimaxRouteApi(route),
    resolutions: { text: image.filter((resolution) => resolution !== MINIMAX_IMAGE_ONLY_RESOLUTION), image },
  };
}

/** A route's API: its `api` option, else what its upstream id speaks. */
export function minimaxRouteApi(route: CatalogModel['route'] | undefined): MinimaxApi {
  const chosen = route?.options?.api;
  if (MINIMAX_APIS.includes(chosen as MinimaxApi)) return chosen as MinimaxApi;
  const upstream = typeof route?.upstreamModel === 'string' ? route.upstreamModel : Object.values(route?.upstreamModel ?? {})[0];
  return minimaxApiOf(upstream ?? '');
}

/** `768p` (any case, as the catalog or a client writes it) -> `768P`; null for what is not `<digits>p`. */
const wireResolution = (resolution: string): MinimaxResolution | null => {
  const digits = /^(\d+)p$/i.exec(resolution.trim())?.[1];
  return digits ? `${Number(digits)}P` : null;
};

/** A body whose model rules held: what to price and send (images still as the client gave them). */
export interface MinimaxParsedBody {
  prompt: string;
  duration: number;
  /** On the wire (`768P`, v2 `2K`); priced at its lower case. */
  resolution: MinimaxResolution | '2K';
  /** v2's `ratio` (text-to-video). */
  ratio?: string;
  mode: ModelMode;
  firstFrame?: { value: string; field: string };
  lastFrame?: { value: string; field: string };
  metadata: Record<string, unknown>;
}

/**
 * A model's rules, read from its catalog entry: its lengths, modes, resolutions and prompt length;
 * and MiniMax's own (1080P only for 6 s, 512P for image-to-video only, text-to-video makes 16:9,
 * last_frame with a first frame); fields MiniMax does not take are refused, never dropped.
 * `hasFile`: a multipart `input_reference` file part came with the body.
 */
export function parseMinimaxBody(body: MinimaxVideoRequestDto, name: string, model: MinimaxModel, hasFile: boolean): MinimaxParsedBody {
  const { entry } = model;
  for (const field of ['negative_prompt', 'seed'] as const) {
    if (body[field] !== undefined) throw AppError.invalid(`${field} is not taken by ${name}`, field);
  }
  const duration = durationWithinEntry(body.duration, entry, name);
  assertPromptWithinEntry(body.prompt, entry, name);
  // v2's content holds exactly one text item, never empty.
  if (model.api === 'v2' && body.prompt.trim() === '') throw AppError.invalid(`prompt must not be empty for ${name}`, 'prompt');

  assertOneInputReference(hasFile, body.input_reference);
  const withImage = hasFile || body.input_reference !== undefined;
  if (!withImage && !entry.modes.includes('text-to-video'))
    throw AppError.invalid(`${name} is image-to-video only: input_reference (the first frame) is required`, 'input_reference');
  if (body.last_frame !== undefined && !entry.modes.includes('first-last-frame'))
    throw AppError.invalid(`last_frame is not taken by ${name}`, 'last_frame');
  if (body.last_frame !== undefined && !withImage)
    throw AppError.invalid('last_frame needs a first frame: send input_reference too', 'input_reference');
  if (withImage && body.last_frame === undefined && !entry.modes.includes('image-to-video'))
    throw AppError.invalid(`${name} does not take image-to-video requests`, 'input_reference');
  const shape = model.api === 'v2' ? v2Shape(body, name, entry, withImage) : v1Shape(body, name, model, withImage, duration);

  const metadata = body.metadata ?? {};
  const gatewayFields = model.api === 'v2' ? MINIMAX_V2_GATEWAY_FIELDS : MINIMAX_GATEWAY_FIELDS;
  const taken = gatewayFields.find((key) => Object.prototype.hasOwnProperty.call(metadata, key));
  if (taken !== undefined) throw AppError.invalid(`metadata.${taken} is set by the gateway`, `metadata.${taken}`);
  return {
    prompt: body.prompt,
    duration,
    ...shape,
    mode: body.last_frame !== undefined ? 'first-last-frame' : withImage ? 'image-to-video' : 'text-to-video',
    ...(body.input_reference !== undefined ? { firstFrame: { value: body.input_reference, field: 'input_reference' } } : {}),
    ...(body.last_frame !== undefined ? { lastFrame: { value: body.last_frame, field: 'last_frame' } } : {}),
    metadata,
  };
}

/** v1's shape: text-to-video makes 16:9 only, the resolutions by how the task is made, 1080P for 6 s only. */
function v1Shape(
  body: MinimaxVideoRequestDto,
  name: string,
  model: MinimaxModel,
  withImage: boolean,
  duration: number,
): { resolution: MinimaxResolution } {
  if (body.aspect_ratio !== undefined && (withImage || body.aspect_ratio !== '16:9')) {
    throw AppError.invalid(`aspect_ratio must be 16:9 for text-to-video; image-to-video follows the image (${name})`, 'aspect_ratio');
  }

  const kind = withImage ? 'image-to-video' : 'text-to-video';
  const allowed = withImage ? model.resolutions.image : model.resolutions.text;
  if (allowed.length === 0)
    throw AppError.invalid(
      `${name} makes ${model.resolutions.image.join(', ')} from a first frame only: input_reference is required`,
      'input_reference',
    );
  const [resolution, resolutionField] = chosenResolution(body, allowed[0]);
  if (!allowed.includes(resolution)) {
    throw AppError.invalid(
      resolutionField === 'size'
        ? `size must be <width>x<height> with a short side of ${allowed.map((allowedOne) => parseInt(allowedOne, 10)).join(' or ')} for ${name} ${kind}`
        : `resolution must be one of ${allowed.join(', ')} for ${name} ${kind}`,
      resolutionField,
    );
  }
  if (resolution === '1080P' && duration !== MINIMAX_1080P_DURATION)
    throw AppError.invalid('duration must be 6 at 1080P (10 s needs 768P)', 'duration');

  return { resolution };
}

/**
 * v2's shape (upstream-protocols-wires.md, 3.3): a resolution of the entry's (`2K`, `768P`, or a
 * `size` whose short side is 1440 or 768); text-to-video a `ratio` of the entry's (16:9 by default,
 * never `adaptive`), frames their own (an aspect_ratio with them is refused, as v1 does).
 */
function v2Shape(
  body: MinimaxVideoRequestDto,
  name: string,
  entry: CatalogEntry,
  withImage: boolean,
): { resolution: MinimaxResolution | '2K'; ratio?: string } {
  const offered = entry.resolutions
    .map((resolution) => resolution.toLowerCase())
    .filter((resolution) => MINIMAX_V2_WIRE_RESOLUTION[resolution]);
  const pixels = body.size !== undefined ? parsePixelSize(body.size) : null;
  if (body.size !== undefined && !pixels) throw AppError.invalid('size must be <width>x<height> in pixels, e.g. 2560x1440', 'size');
  const sized = pixels ? MINIMAX_V2_RESOLUTION_OF_SHORT_SIDE[Math.min(pixels.width, pixels.height)] : undefined;
  if (pixels && (!sized || !offered.includes(sized)))
    throw AppError.invalid(
      `size must have a short side of ${offered.map((r) => (r === '2k' ? 1440 : parseInt(r, 10))).join(' or ')} for ${name}`,
      'size',
    );
  const named = body.resolution?.toLowerCase();
  if (named !== undefined && !offered.includes(named))
    throw AppError.invalid(
      `resolution must be one of ${offered.map((r) => MINIMAX_V2_WIRE_RESOLUTION[r]).join(', ')} for ${name}`,
      'resolution',
    );
  if (named && sized && named !== sized) throw AppError.invalid(`size does not match resolution ${body.resolution}`, 'size');
  const resolution = MINIMAX_V2_WIRE_RESOLUTION[named ?? sized ?? offered[0] ?? '2k'] as MinimaxResolution | '2K';
  if (withImage) {
    if (body.aspect_ratio !== undefined)
      throw AppError.invalid(`aspect_ratio is not taken with input_reference: the video follows the image (${name})`, 'aspect_ratio');
    return { resolution };
  }
  const ratios = entry.aspectRatios.length > 0 ? entry.aspectRatios : MINIMAX_V2_RATIOS;
  const sizedRatio = pixels ? ratios.find((ratio) => nearRatio(ratio, pixels.width, pixels.height)) : undefined;
  if (pixels && !sizedRatio) throw AppError.invalid(`size must be one of the ratios ${ratios.join(', ')} for ${name}`, 'size');
  if (body.aspect_ratio !== undefined && !ratios.includes(body.aspect_ratio))
    throw AppError.invalid(`aspect_ratio must be one of ${ratios.join(', ')} for ${name} text-to-video`, 'aspect_ratio');
  if (body.aspect_ratio !== undefined && sizedRatio !== undefined && body.aspect_ratio !== sizedRatio)
    throw AppError.invalid(`aspect_ratio ${body.aspect_ratio} does not match size ${body.size}`, 'aspect_ratio');
  return { resolution, ratio: body.aspect_ratio ?? sizedRatio ?? ratios[0] };
}

/** `w:h` within 1% of width/height (768P at 16:9 is 1366x768). */
function nearRatio(ratio: string, width: number, height: number): boolean {
  const [w, h] = ratio.split(':').map(Number);
  return Math.abs(width / height / (w / h) - 1) < 0.01;
}

/** `resolution` (`768P`, any case), else `size`'s short side; both given must agree. */
function chosenResolution(body: MinimaxVideoRequestDto, fallback: MinimaxResolution): [MinimaxResolution, string] {
  const named = body.resolution !== undefined ? wireResolution(body.resolution) : null;
  if (body.resolution !== undefined && !named)
    throw AppError.invalid('resolution must be like 768P (a number of pixels, then P)', 'resolution');
  let sized: MinimaxResolution | undefined;
  if (body.size !== undefined) {
    const pixels = parsePixelSize(body.size);
    if (!pixels) throw AppError.invalid('size must be <width>x<height> in pixels, e.g. 1366x768', 'size');
    sized = `${Math.min(pixels.width, pixels.height)}P`;
  }
  if (named && sized && named !== sized) throw AppError.invalid(`size does not match resolution ${named}`, 'size');
  if (named) return [named, 'resolution'];
  if (sized) return [sized, 'size'];
  return [fallback, 'resolution'];
}
