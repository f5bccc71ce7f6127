import { routeOption } from '../route-option-definition';
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

/** MiniMax's two video APIs: v1 (`/v1/video_generation`, Hailuo) and v2 (`/v2/video_generation`, a `content` array: H3). */
export type MinimaxApi = 'v1' | 'v2';
export const MINIMAX_APIS: readonly MinimaxApi[] = ['v1', 'v2'];

/** The API of an upstream model, unless its route's `api` option says: the H models (MiniMax-H3...) are v2's. */
export function minimaxApiOf(upstreamModel: string): MinimaxApi {
  return /^minimax-h\d/i.test(upstreamModel) ? 'v2' : 'v1';
}

/** The console's form of the one route option, `api` (the family's checkRouteOptions is its rule). */
export const MINIMAX_API_OPTION = routeOption(
  'api',
  'choice',
  ['MiniMax video API', 'MiniMax 视频 API'],
  [
    'v1 (/v1/video_generation, Hailuo) or v2 (/v2/video_generation, a content array: MiniMax-H3); unset, an upstream id MiniMax-H… speaks v2.',
    'v1（/v1/video_generation，海螺）或 v2（/v2/video_generation，content 数组：MiniMax-H3）；未设置时，上游 ID 为 MiniMax-H… 的使用 v2。',
  ],
  MINIMAX_APIS,
);

/** A builtin model of the v2 API (upstream-protocols-wires.md, 3.3 and 3.7). */
export interface MinimaxV2BuiltinModel {
  label: string;
  releasedAt: string;
  /** Catalog names (`2k`, `768p`), the first the default. */
  resolutions: readonly string[];
}

/** The v2 API's lengths (5 to 15 s: docs/families.md, MiniMax, says why not 4), ratios (the first the default), prompt limit. */
export const MINIMAX_V2_DURATIONS = { min: 5, max: 15 } as const;
export const MINIMAX_V2_DEFAULT_DURATION = 5;
export const MINIMAX_V2_RATIOS = ['16:9', '21:9', '4:3', '1:1', '3:4', '9:16'];
export const MINIMAX_V2_MAX_PROMPT = 7000;
/** Catalog resolution -> v2's wire (`2K` is 2560x1440), and a `size`'s short side -> catalog resolution. */
export const MINIMAX_V2_WIRE_RESOLUTION: Readonly<Record<string, string>> = { '2k': '2K', '768p': '768P' };
export const MINIMAX_V2_RESOLUTION_OF_SHORT_SIDE: Readonly<Record<number, string>> = { 1440: '2k', 768: '768p' };

/** MiniMax-H3 (2026-07-30): text, first frame, first and last frames; 2K at launch, 768P added later; sound always. */
export const MINIMAX_V2_MODELS: Readonly<Record<string, MinimaxV2BuiltinModel>> = {
  'MiniMax-H3': { label: 'MiniMax H3', releasedAt: '2026-07-30', resolutions: ['2k', '768p'] },
};

export const MINIMAX_MODEL_IDS = [...Object.keys(MINIMAX_MODELS), ...Object.keys(MINIMAX_V2_MODELS)];

/** The canonical id of a builtin MiniMax model, whatever the case the client wrote it in; null for another name. */
export function minimaxPublicModel(name: string): string | null {
  return MINIMAX_MODEL_IDS.find((model) => model.toLowerCase() === name.toLowerCase()) ?? null;
}
