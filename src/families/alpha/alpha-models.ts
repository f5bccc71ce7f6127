/**
 * Family A's protocol vocabulary: its model ids, qualities and the fast motion rule. What each
 * model can do is its catalog entry (alpha-task-rules.ts reads it).
 */
export const ALPHA_QUALITIES = ['360p', '540p', '720p', '1080p'] as const;
export type AlphaQuality = (typeof ALPHA_QUALITIES)[number];

/** The aspect ratios the provider's text-to-video takes. */
export const ALPHA_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '2:3', '3:2', '21:9'];
/** What the provider makes when sent no aspect ratio. */
export const ALPHA_PROVIDER_DEFAULT_RATIO = '16:9';

/** Fast motion only at 5 s and below 1080p. */
export const FAST_MOTION_DURATION = 5;

/**
 * `alpha/<version>`: the prefix is case-sensitive, the version is not (lowercased). Null for
 * anything else; which versions exist is the catalog's to say.
 */
export function parseAlphaModel(model: string): string | null {
  if (!model.startsWith('alpha/')) return null;
  const version = model.slice('alpha/'.length).toLowerCase();
  return version === '' ? null : version;
}

export const isAlphaQuality = (value: string): value is AlphaQuality => (ALPHA_QUALITIES as readonly string[]).includes(value);

/** The quality whose short edge is nearest to the pixel size's short edge (`1280x720` -> `720p`). */
export function nearestQuality(width: number, height: number): AlphaQuality {
  const shortEdge = Math.min(width, height);
  let best: AlphaQuality = ALPHA_QUALITIES[0];
  for (const quality of ALPHA_QUALITIES) {
    if (Math.abs(parseInt(quality, 10) - shortEdge) < Math.abs(parseInt(best, 10) - shortEdge)) best = quality;
  }
  return best;
}
