/**
 * What one builtin Veo model takes on the Gemini API (docs/upstream-protocols.md, Family Veo): the
 * data its catalog entry is made from (veo-catalog.ts). The rules read the entry, never this table.
 */
export interface VeoBuiltinModel {
  durations: readonly number[];
  resolutions: readonly string[];
  /** First-and-last-frame interpolation (`lastFrame`): Veo 3.1 only. */
  lastFrame: boolean;
}

export const VEO_ASPECT_RATIOS = ['16:9', '9:16'] as const;
/** Veo's default length, billed and sent when a submit names none. */
export const VEO_DEFAULT_SECONDS = 8;
export const VEO_DEFAULT_RESOLUTION = '720p';
/** Veo's protocol: 1080p and 4k are made only at VEO_HIGH_RESOLUTION_SECONDS. */
export const VEO_HIGH_RESOLUTIONS: readonly string[] = ['1080p', '4k'];
export const VEO_HIGH_RESOLUTION_SECONDS = 8;

const VEO_3_1: VeoBuiltinModel = { durations: [4, 6, 8], resolutions: ['720p', '1080p', '4k'], lastFrame: true };
const VEO_3_0: VeoBuiltinModel = { durations: [4, 6, 8], resolutions: ['720p', '1080p'], lastFrame: false };

/** The embedded simulator's own model: Google retired every builtin id, and the simulator must still serve one (docs/simulator.md). */
export const VEO_SIMULATOR_MODEL = 'veo-simulator';

/** The public model ids are Google's own names, and the simulator's model (Veo 3.1 Fast's rules). */
export const VEO_MODELS: Readonly<Record<string, VeoBuiltinModel>> = {
  'veo-3.1-generate-preview': VEO_3_1,
  'veo-3.1-fast-generate-preview': VEO_3_1,
  'veo-3.0-generate-001': VEO_3_0,
  'veo-3.0-fast-generate-001': VEO_3_0,
  [VEO_SIMULATOR_MODEL]: VEO_3_1,
};
