/**
 * What one builtin MiniMax Hailuo model takes (docs/upstream-protocols.md, Family MiniMax Hailuo):
 * the data its catalog entry is made from (minimax-catalog.ts). The rules read the entry, never this table.
 */
export interface MinimaxBuiltinModel {
  /** Takes a prompt without a first frame. */
  textToVideo: boolean;
  /** Takes `last_frame` (start/end-frame mode, with a first frame). */
  lastFrame: boolean;
  /** Resolutions by how the task is made; the first is the default. */
  resolutions: { text: readonly MinimaxResolution[]; image: readonly MinimaxResolution[] };
}

/** A resolution as MiniMax's wire spells it: `768P` (the catalog's `768p`, upper case). */
export type MinimaxResolution = `${number}P`;
export const MINIMAX_DURATIONS = [6, 10] as const;
export const MINIMAX_DEFAULT_DURATION = 6;
/** MiniMax's protocol: 1080P is 6 s only; 10 s needs 768P (or 512P). */
export const MINIMAX_1080P_DURATION = 6;
/** MiniMax's protocol: 512P is made from a first frame only (image-to-video). */
export const MINIMAX_IMAGE_ONLY_RESOLUTION: MinimaxResolution = '512P';
export const MINIMAX_MAX_PROMPT = 2000;

export const MINIMAX_MODELS: Readonly<Record<string, MinimaxBuiltinModel>> = {
  'MiniMax-Hailuo-2.3': { textToVideo: true, lastFrame: false, resolutions: { text: ['768P', '1080P'], image: ['768P', '1080P'] } },
  // Image-to-video only.
  'MiniMax-Hailuo-2.3-Fast': { textToVideo: false, lastFrame: false, resolutions: { text: [], image: ['768P', '1080P'] } },
  // 512P is for image-to-video only.
  'MiniMax-Hailuo-02': { textToVideo: true, lastFrame: true, resolutions: { text: ['768P', '1080P'], image: ['768P', '512P', '1080P'] } },
};

export const MINIMAX_MODEL_IDS = Object.keys(MINIMAX_MODELS);

/** The canonical id of a builtin MiniMax model, whatever the case the client wrote it in; null for another name. */
export function minimaxPublicModel(name: string): string | null {
  return MINIMAX_MODEL_IDS.find((model) => model.toLowerCase() === name.toLowerCase()) ?? null;
}
