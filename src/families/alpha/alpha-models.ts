/**
 * Family A model catalog: what each `alpha/<version>` can do. The gateway validates requests
 * against it before charging; the simulator enforces the same rules on the provider side.
 */
export const ALPHA_VERSIONS = ['c1', 'v6', 'v5.6', 'v5.5', 'v5', 'v4.5', 'v4', 'v3.5'] as const;
export type AlphaVersion = (typeof ALPHA_VERSIONS)[number];

export const ALPHA_QUALITIES = ['360p', '540p', '720p', '1080p'] as const;
export type AlphaQuality = (typeof ALPHA_QUALITIES)[number];

const BASE_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16'];
const WIDE_RATIOS = [...BASE_RATIOS, '2:3', '3:2', '21:9'];
const ONE_TO_FIFTEEN = Array.from({ length: 15 }, (_, i) => i + 1);

export interface AlphaVersionSpec {
  durations: number[];
  audio: boolean;
  fastMotion: boolean;
  aspectRatios: string[];
  /** Durations the version cannot do at 1080p. */
  no1080pDurations: number[];
}

export const ALPHA_SPECS: Record<AlphaVersion, AlphaVersionSpec> = {
  c1: { durations: ONE_TO_FIFTEEN, audio: true, fastMotion: false, aspectRatios: WIDE_RATIOS, no1080pDurations: [] },
  v6: { durations: ONE_TO_FIFTEEN, audio: true, fastMotion: false, aspectRatios: WIDE_RATIOS, no1080pDurations: [] },
  'v5.6': { durations: [5, 8, 10], audio: true, fastMotion: false, aspectRatios: BASE_RATIOS, no1080pDurations: [10] },
  'v5.5': { durations: [5, 8, 10], audio: true, fastMotion: false, aspectRatios: BASE_RATIOS, no1080pDurations: [10] },
  v5: { durations: [5, 8], audio: false, fastMotion: false, aspectRatios: BASE_RATIOS, no1080pDurations: [] },
  'v4.5': { durations: [5, 8], audio: false, fastMotion: true, aspectRatios: BASE_RATIOS, no1080pDurations: [] },
  v4: { durations: [5, 8], audio: false, fastMotion: true, aspectRatios: BASE_RATIOS, no1080pDurations: [] },
  'v3.5': { durations: [5, 8], audio: false, fastMotion: true, aspectRatios: BASE_RATIOS, no1080pDurations: [8] },
};

/** Fast motion only at 5 s and below 1080p. */
export const FAST_MOTION_DURATION = 5;

/** `alpha/<version>`: the prefix is case-sensitive, the version is not. Null for anything else. */
export function parseAlphaModel(model: string): AlphaVersion | null {
  if (!model.startsWith('alpha/')) return null;
  const version = model.slice('alpha/'.length).toLowerCase();
  return (ALPHA_VERSIONS as readonly string[]).includes(version) ? (version as AlphaVersion) : null;
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
