/**
 * What one builtin Runway model takes (docs/upstream-protocols.md, Family Runway; runwayml/sdk-node):
 * the data its catalog entry is made from (runway-catalog.ts). The rules read the entry, never this table.
 */
export interface RunwayBuiltinModel {
  /** Text-to-video (`POST /v1/text_to_video`) is offered; gen4_turbo is image-to-video only. */
  textToVideo: boolean;
  durations: readonly number[];
  defaultDuration: number;
  /** Output ratios (`<w>:<h>` pixels) for text-to-video and for image-to-video. */
  textRatios: readonly string[];
  imageRatios: readonly string[];
  /** Veo models: a last frame (`position: "last"`), `negativePrompt` and generated audio. */
  veo: boolean;
  /** Video-to-video only (`POST /v1/video_to_video`, `videoUri`): it edits a source video (the catalog's `video-edit`). */
  videoToVideo?: boolean;
}

const GEN4_IMAGE_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'];
const VEO_RATIOS = ['1280:720', '720:1280', '1080:1920', '1920:1080'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const veo: RunwayBuiltinModel = {
  textToVideo: true,
  durations: [4, 6, 8],
  defaultDuration: 8,
  textRatios: VEO_RATIOS,
  imageRatios: VEO_RATIOS,
  veo: true,
};

export const RUNWAY_MODELS: Readonly<Record<string, RunwayBuiltinModel>> = {
  'gen4.5': {
    textToVideo: true,
    durations: range(2, 10),
    defaultDuration: 5,
    textRatios: ['1280:720', '720:1280'],
    imageRatios: GEN4_IMAGE_RATIOS,
    veo: false,
  },
  // Durations 5 and 10: what every SDK version accepted (later versions type it only as a number).
  gen4_turbo: { textToVideo: false, durations: [5, 10], defaultDuration: 5, textRatios: [], imageRatios: GEN4_IMAGE_RATIOS, veo: false },
  'veo3.1': veo,
  'veo3.1_fast': veo,
  // Google's Gemini Omni Flash on Runway (sdk-node 4.12.0, 2026-07-06): text or a first frame, 3 to 10 s, 720p 16:9 or 9:16, no audio.
  gemini_omni_flash: {
    textToVideo: true,
    durations: range(3, 10),
    defaultDuration: 5,
    textRatios: ['1280:720', '720:1280'],
    imageRatios: ['1280:720', '720:1280'],
    veo: false,
  },
  // Aleph 2.0 (sdk-node 4.12.0: `aleph2` on /v1/video_to_video): edits a source video of 2 to 30 s (Comfy's node docs), its
  // output as long as the source; the durations are the sources it takes.
  aleph2: {
    textToVideo: false,
    durations: range(2, 30),
    defaultDuration: 5,
    textRatios: [],
    imageRatios: [],
    veo: false,
    videoToVideo: true,
  },
};

/** Runway's protocol: `aspect_ratio` + `resolution` -> the pixel ratio (`ratio`) it takes. */
export const RUNWAY_RATIO_BY_ASPECT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '720p': { '16:9': '1280:720', '9:16': '720:1280', '4:3': '1104:832', '3:4': '832:1104', '1:1': '960:960', '21:9': '1584:672' },
  '1080p': { '16:9': '1920:1080', '9:16': '1080:1920' },
};
