import { AppError } from '../../common/errors/app-error';
import { parsePixelSize } from '../pixel-size';
import { assertModelDuration } from '../shared/model-durations';
import { MINIMAX_1080P_DURATION, MINIMAX_DEFAULT_DURATION, MINIMAX_DURATIONS, MINIMAX_MODELS, MinimaxResolution } from './minimax-models';
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
const RESOLUTION_BY_SHORT_SIDE: Record<number, MinimaxResolution> = { 512: '512P', 768: '768P', 1080: '1080P' };

/** A body whose model rules held: what to price and send (images still as the client gave them). */
export interface MinimaxParsedBody {
  prompt: string;
  duration: number;
  resolution: MinimaxResolution;
  firstFrame?: { value: string; field: string };
  lastFrame?: { value: string; field: string };
  metadata: Record<string, unknown>;
}

/**
 * Each model's rules (docs/upstream-protocols.md): durations 6 or 10, 1080P only for 6 s, 512P only
 * for -02 image-to-video, -2.3-Fast image-to-video only, last_frame on -02 with a first frame; fields
 * MiniMax does not take are refused, never dropped. `hasFile`: a multipart `input_reference` file part came with the body.
 */
export function parseMinimaxBody(body: MinimaxVideoRequestDto, model: string, hasFile: boolean): MinimaxParsedBody {
  const rules = MINIMAX_MODELS[model];
  for (const field of ['negative_prompt', 'seed'] as const) {
    if (body[field] !== undefined) throw AppError.invalid(`${field} is not taken by ${model}`, field);
  }
  const duration = body.duration ?? MINIMAX_DEFAULT_DURATION;
  assertModelDuration(duration, MINIMAX_DURATIONS, model);

  assertOneInputReference(hasFile, body.input_reference);
  const withImage = hasFile || body.input_reference !== undefined;
  if (!withImage && !rules.textToVideo)
    throw AppError.invalid(`${model} is image-to-video only: input_reference (the first frame) is required`, 'input_reference');
  if (body.last_frame !== undefined && !rules.lastFrame)
    throw AppError.invalid(`last_frame is not taken by ${model} (only MiniMax-Hailuo-02)`, 'last_frame');
  if (body.last_frame !== undefined && !withImage)
    throw AppError.invalid('last_frame needs a first frame: send input_reference too', 'input_reference');
  if (body.aspect_ratio !== undefined && (withImage || body.aspect_ratio !== '16:9')) {
    throw AppError.invalid(`aspect_ratio must be 16:9 for text-to-video; image-to-video follows the image (${model})`, 'aspect_ratio');
  }

  const allowed = withImage ? rules.resolutions.image : rules.resolutions.text;
  const [resolution, resolutionField] = chosenResolution(body, allowed[0]);
  if (!allowed.includes(resolution)) {
    throw AppError.invalid(
      `${resolutionField} must be one of ${allowed.join(', ')} for ${model} ${withImage ? 'image' : 'text'}-to-video`,
      resolutionField,
    );
  }
  if (resolution === '1080P' && duration !== MINIMAX_1080P_DURATION)
    throw AppError.invalid('duration must be 6 at 1080P (10 s needs 768P)', 'duration');

  const metadata = body.metadata ?? {};
  const taken = MINIMAX_GATEWAY_FIELDS.find((key) => Object.prototype.hasOwnProperty.call(metadata, key));
  if (taken !== undefined) throw AppError.invalid(`metadata.${taken} is set by the gateway`, `metadata.${taken}`);
  return {
    prompt: body.prompt,
    duration,
    resolution,
    ...(body.input_reference !== undefined ? { firstFrame: { value: body.input_reference, field: 'input_reference' } } : {}),
    ...(body.last_frame !== undefined ? { lastFrame: { value: body.last_frame, field: 'last_frame' } } : {}),
    metadata,
  };
}

/** `resolution` (`768P`, any case), else `size`'s short side; both given must agree. */
function chosenResolution(body: MinimaxVideoRequestDto, fallback: MinimaxResolution): [MinimaxResolution, string] {
  const named = body.resolution !== undefined ? RESOLUTION_BY_SHORT_SIDE[Number(/^(\d+)p$/i.exec(body.resolution.trim())?.[1])] : undefined;
  if (body.resolution !== undefined && !named) throw AppError.invalid('resolution must be 512P, 768P or 1080P', 'resolution');
  let sized: MinimaxResolution | undefined;
  if (body.size !== undefined) {
    const pixels = parsePixelSize(body.size);
    sized = pixels ? RESOLUTION_BY_SHORT_SIDE[Math.min(pixels.width, pixels.height)] : undefined;
    if (!sized) throw AppError.invalid('size must be <width>x<height> with a short side of 512, 768 or 1080', 'size');
  }
  if (named && sized && named !== sized) throw AppError.invalid(`size does not match resolution ${named}`, 'size');
  if (named) return [named, 'resolution'];
  if (sized) return [sized, 'size'];
  return [fallback, 'resolution'];
}
