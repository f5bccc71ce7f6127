/**
 * Family A's builtin models as the interface lists them: the data their catalog entries are made
 * from (alpha-catalog.ts), and what the emulator serves. The rules read a model's catalog entry, never this.
 */
export const ALPHA_BUILTIN_VERSIONS = ['c1', 'v6', 'v5.6', 'v5.5', 'v5', 'v4.5', 'v4', 'v3.5'] as const;
export type AlphaBuiltinVersion = (typeof ALPHA_BUILTIN_VERSIONS)[number];

const BASE_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16'];
const WIDE_RATIOS = [...BASE_RATIOS, '2:3', '3:2', '21:9'];
const ONE_TO_FIFTEEN = Array.from({ length: 15 }, (_, i) => i + 1);

export interface AlphaBuiltinSpec {
  durations: number[];
  audio: boolean;
  /** Route option `fast_motion`. */
  fastMotion: boolean;
  aspectRatios: string[];
  /** Route option `no_1080p_durations`: the lengths the version cannot make at 1080p. */
  no1080pDurations: number[];
}

export const ALPHA_BUILTIN_SPECS: Record<AlphaBuiltinVersion, AlphaBuiltinSpec> = {
  c1: { durations: ONE_TO_FIFTEEN, audio: true, fastMotion: false, aspectRatios: WIDE_RATIOS, no1080pDurations: [] },
  v6: { durations: ONE_TO_FIFTEEN, audio: true, fastMotion: false, aspectRatios: WIDE_RATIOS, no1080pDurations: [] },
  'v5.6': { durations: [5, 8, 10], audio: true, fastMotion: false, aspectRatios: BASE_RATIOS, no1080pDurations: [10] },
  'v5.5': { durations: [5, 8, 10], audio: true, fastMotion: false, aspectRatios: BASE_RATIOS, no1080pDurations: [10] },
  v5: { durations: [5, 8], audio: false, fastMotion: false, aspectRatios: BASE_RATIOS, no1080pDurations: [] },
  'v4.5': { durations: [5, 8], audio: false, fastMotion: true, aspectRatios: BASE_RATIOS, no1080pDurations: [] },
  v4: { durations: [5, 8], audio: false, fastMotion: true, aspectRatios: BASE_RATIOS, no1080pDurations: [] },
  'v3.5': { durations: [5, 8], audio: false, fastMotion: true, aspectRatios: BASE_RATIOS, no1080pDurations: [8] },
};
