import { AppError } from '../../common/errors/app-error';
import { nearestAspectRatio, parsePixelSize } from '../pixel-size';

/** How far (relative) a size's shape may be from the aspect ratio it is read as: 848x480 is 16:9. */
const SHAPE_TOLERANCE = 0.02;

/**
 * `size` (`<w>x<h>`, what OpenAI-style clients send) in the shared vocabulary: the aspect ratio of
 * `aspects` it is (none when `aspects` is empty) and the resolution its short side names (`720p`),
 * one of `resolutions`; a 400 naming `size` otherwise.
 */
export function sizeAsShared(
  size: string,
  aspects: readonly string[],
  resolutions: readonly string[],
  model: string,
): { aspectRatio?: string; resolution: string } {
  const pixels = parsePixelSize(size);
  const refuse = () => {
    const shapes = aspects.length > 0 ? `${aspects.join(', ')} at ` : '';
    return AppError.invalid(
      `size must be ${shapes}a short side of ${resolutions.map((r) => parseInt(r, 10)).join(', ')} pixels for ${model}`,
      'size',
    );
  };
  if (!pixels || pixels.width === 0 || pixels.height === 0) throw refuse();
  const resolution = resolutions.find((allowed) => allowed.toLowerCase() === `${Math.min(pixels.width, pixels.height)}p`);
  if (!resolution) throw refuse();
  if (aspects.length === 0) return { resolution };
  const aspectRatio = nearestAspectRatio(pixels.width, pixels.height, [...aspects]);
  const [w, h] = aspectRatio.split(':').map(Number);
  if (Math.abs(pixels.width / pixels.height / (w / h) - 1) > SHAPE_TOLERANCE) throw refuse();
  return { aspectRatio, resolution };
}

/**
 * A field that `size` may also set (`resolution`, `aspect_ratio`): the value sent (else what `size`
 * said, else the first of `allowed`), one of `allowed` in any case and agreeing with `size`; a 400 naming `field` otherwise.
 */
export function fieldOrSize(
  field: string,
  sent: string | undefined,
  fromSize: string | undefined,
  allowed: readonly string[],
  model: string,
): string {
  const wanted = sent?.trim();
  if (wanted !== undefined && fromSize !== undefined && wanted.toLowerCase() !== fromSize.toLowerCase())
    throw AppError.invalid(`${field} ${wanted} does not match size (${fromSize})`, field);
  const value = wanted ?? fromSize ?? allowed[0];
  const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  if (!match) throw AppError.invalid(`${field} must be ${allowed.join(', ')} for ${model}`, field);
  return match;
}
