import type { CatalogEntry, ModelMode } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import { assertPromptWithinEntry, durationWithinEntry, clientMetadata } from '../shared/entry-rules';
import { fieldOrSize, sizeAsShared } from '../shared/size-fields';
import { SEEDANCE_ADAPTIVE, SEEDANCE_ASPECT_RATIOS, SEEDANCE_GATEWAY_KEYS, SEEDANCE_MAX_REFERENCE_IMAGES } from './seedance-models';
import type { SeedanceVideoRequestDto } from './seedance-request.dto';

/** What the rules make of a validated body: everything but the images. */
export interface SeedanceSettled {
  mode: ModelMode;
  duration: number;
  resolution: string;
  ratio: string;
  generateAudio: boolean;
  extra: Record<string, unknown>;
}

/**
 * A Seedance model's rules across fields, read from its catalog entry (modes, lengths, resolutions,
 * ratios, reference count, audio, prompt length), before any charge: each a 400 naming the field the
 * client sent. Frames (`input_reference`, `last_frame`) and `reference_images` cannot mix, as Ark
 * refuses. `hasFirstFrame`: an `input_reference` came (field or file part).
 */
export function settleSeedanceRequest(
  name: string,
  entry: CatalogEntry,
  body: SeedanceVideoRequestDto,
  hasFirstFrame: boolean,
): SeedanceSettled {
  const offers = (mode: ModelMode) => entry.modes.includes(mode);
  const references = body.reference_images ?? [];
  const hasFrames = hasFirstFrame || body.last_frame !== undefined;
  assertPromptWithinEntry(body.prompt, entry, name);
  if (body.negative_prompt !== undefined) throw AppError.invalid(`negative_prompt is not taken by ${name}`, 'negative_prompt');
  if (body.reference_images !== undefined && references.length === 0)
    throw AppError.invalid('reference_images must hold at least one image', 'reference_images');
  if (references.length > 0 && hasFrames)
    throw AppError.invalid(
      'reference_images cannot be mixed with input_reference or last_frame (frames or references, not both)',
      'reference_images',
    );
  if (references.length > 0 && !offers('reference-to-video'))
    throw AppError.invalid(`reference_images is not taken by ${name}`, 'reference_images');
  const maxReferences = entry.maxReferenceImages ?? SEEDANCE_MAX_REFERENCE_IMAGES;
  if (references.length > maxReferences)
    throw AppError.invalid(`reference_images takes at most ${maxReferences} images for ${name}`, 'reference_images');
  if (body.last_frame !== undefined && !hasFirstFrame)
    throw AppError.invalid('last_frame needs input_reference (the first frame)', 'last_frame');
  if (body.last_frame !== undefined && !offers('first-last-frame'))
    throw AppError.invalid(`last_frame is not taken by ${name}`, 'last_frame');
  if (hasFirstFrame && body.last_frame === undefined && !offers('image-to-video'))
    throw AppError.invalid(`${name} does not take image-to-video requests`, 'input_reference');
  if (!hasFrames && references.length === 0 && !offers('text-to-video'))
    throw AppError.invalid(`${name} is not a text-to-video model: input_reference is required`, 'input_reference');
  if (!hasFirstFrame && !body.prompt?.trim())
    throw AppError.invalid(`prompt is required for ${references.length > 0 ? 'reference-to-video' : 'text-to-video'}`, 'prompt');
  const extra = clientMetadata(body.metadata, SEEDANCE_GATEWAY_KEYS);
  const sentRatio = body.aspect_ratio?.trim();
  // Newer models refuse an explicit ratio with frames: the video follows the image.
  if (hasFrames && sentRatio !== undefined && sentRatio !== SEEDANCE_ADAPTIVE)
    throw AppError.invalid(
      'aspect_ratio is not taken with input_reference: the video follows the image (or send adaptive)',
      'aspect_ratio',
    );

  const duration = durationWithinEntry(body.duration, entry, name);
  const resolutions = entry.resolutions.length > 0 ? entry.resolutions : ['720p'];
  const aspects = hasFrames ? [] : entry.aspectRatios.length > 0 ? entry.aspectRatios : SEEDANCE_ASPECT_RATIOS;
  const fromSize = body.size !== undefined ? sizeAsShared(body.size, aspects, resolutions, name) : undefined;
  const resolution = fieldOrSize('resolution', body.resolution, fromSize?.resolution, resolutions, name);
  const ratio = hasFrames
    ? SEEDANCE_ADAPTIVE
    : fieldOrSize('aspect_ratio', sentRatio, fromSize?.aspectRatio, [...aspects, SEEDANCE_ADAPTIVE], name);
  return {
    mode:
      references.length > 0
        ? 'reference-to-video'
        : body.last_frame !== undefined
          ? 'first-last-frame'
          : hasFirstFrame
            ? 'image-to-video'
            : 'text-to-video',
    duration,
    resolution,
    ratio,
    generateAudio: settleSeedanceAudio(name, entry, body.audio),
    extra,
  };
}

/** `generate_audio`, always sent (so what is billed is what is made): `none` off, `always` on, `optional` as asked (default on, Ark's own). */
export function settleSeedanceAudio(name: string, entry: CatalogEntry, asked: boolean | undefined): boolean {
  switch (entry.audio) {
    case 'none':
      if (asked === true) throw AppError.invalid(`audio is not generated by ${name}`, 'audio');
      return false;
    case 'always':
      if (asked === false) throw AppError.invalid(`${name} always generates audio`, 'audio');
      return true;
    default:
      return asked ?? true;
  }
}
