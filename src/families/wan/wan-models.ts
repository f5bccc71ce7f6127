import type { AudioSupport, DurationSpec, ModelMode } from '../../catalog/catalog-entry';

/**
 * DashScope's two wires for video synthesis (docs/upstream-protocols-wires.md, 2.2): `legacy`
 * (wan2.1 to 2.6: `input.img_url`, `parameters.size` for text-to-video, `parameters.audio`) and
 * `media` (wan2.7, HappyHorse: `input.media[]` of typed frames, `parameters.ratio`, no audio switch).
 */
export type WanProtocol = 'legacy' | 'media';
export const WAN_PROTOCOLS: readonly WanProtocol[] = ['legacy', 'media'];

/** The wire of an upstream model, unless its route's `protocol` option says: wan2.1 to 2.6 (and `wanx2.*`) speak the legacy one. */
export function wanProtocolOf(upstreamModel: string): WanProtocol {
  return /^wanx?2\.[0-6](\D|$)/i.test(upstreamModel) ? 'legacy' : 'media';
}

/** DashScope's resolutions, upper case (`720P`); the gateway's names are lower case. */
export const WAN_RESOLUTION_VALUES: Readonly<Record<string, string>> = { '480p': '480P', '720p': '720P', '1080p': '1080P' };
/** `ratio` of the media wire's text-to-video, and the shapes of the legacy wire's sizes. */
export const WAN_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];

/**
 * The legacy wire's text-to-video `size` (`<w>*<h>`) for each resolution and aspect ratio (the
 * sizes of DashScope's wan2.5/2.6 text-to-video reference).
 */
export const WAN_LEGACY_SIZES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '480P': { '16:9': '832*480', '9:16': '480*832', '1:1': '624*624', '4:3': '832*624', '3:4': '624*832' },
  '720P': { '16:9': '1280*720', '9:16': '720*1280', '1:1': '960*960', '4:3': '1088*832', '3:4': '832*1088' },
  '1080P': { '16:9': '1920*1080', '9:16': '1080*1920', '1:1': '1440*1440', '4:3': '1632*1248', '3:4': '1248*1632' },
};

/** `negative_prompt`'s limit on every Wan model. */
export const WAN_NEGATIVE_PROMPT_MAX = 500;

/**
 * The source of an edit (`wan2.7-videoedit`'s `video`) or an extension (`wan2.7-i2v`'s `first_clip`):
 * 2 to 10 s (Alibaba's references, as peers copy them); an extension's whole video is at most 15 s.
 */
export const WAN_SOURCE_SECONDS = { min: 2, max: 10, outputMax: 15 };

/** A builtin Wan model: the data its catalog entry is made from (wan-catalog.ts). */
export interface WanBuiltinModel {
  label: string;
  modes: readonly ModelMode[];
  durations: DurationSpec;
  aspectRatios: readonly string[];
  audio: AudioSupport;
  promptMaxLength: number;
  /** `YYYY-MM-DD` (docs/families.md, Wan: third-party dates, UNCONFIRMED). */
  releasedAt: string;
}

const WAN26_LENGTHS: DurationSpec = [5, 10, 15];
const WAN27_LENGTHS: DurationSpec = { min: 2, max: 15 };

/**
 * The builtin models (the notes' 2.7 model table): 2.6 on the legacy wire (5, 10 or 15 s, `audio`
 * optional, multi-shot through `metadata.shot_type`), 2.7 on the media wire (2 to 15 s, audio always
 * made, first and last frames on wan2.7-i2v). Both at 720p or 1080p.
 */
export const WAN_MODELS: Readonly<Record<string, WanBuiltinModel>> = {
  'wan2.6-t2v': {
    label: 'Wan 2.6 Text-to-Video',
    modes: ['text-to-video'],
    durations: WAN26_LENGTHS,
    aspectRatios: WAN_ASPECT_RATIOS,
    audio: 'optional',
    promptMaxLength: 1500,
    releasedAt: '2025-12-16',
  },
  'wan2.6-i2v': {
    label: 'Wan 2.6 Image-to-Video',
    modes: ['image-to-video'],
    durations: WAN26_LENGTHS,
    aspectRatios: [],
    audio: 'optional',
    promptMaxLength: 1500,
    releasedAt: '2025-12-16',
  },
  'wan2.7-t2v': {
    label: 'Wan 2.7 Text-to-Video',
    modes: ['text-to-video'],
    durations: WAN27_LENGTHS,
    aspectRatios: WAN_ASPECT_RATIOS,
    audio: 'always',
    promptMaxLength: 5000,
    releasedAt: '2026-04-02',
  },
  'wan2.7-i2v': {
    label: 'Wan 2.7 Image-to-Video',
    // `video-extend`: the stored video as `first_clip` (wan-source-rules.ts).
    modes: ['image-to-video', 'first-last-frame', 'video-extend'],
    durations: WAN27_LENGTHS,
    aspectRatios: [],
    audio: 'always',
    promptMaxLength: 5000,
    releasedAt: '2026-04-02',
  },
  // Edits a stored video (`media[] {type: "video"}`); its output follows the source, 2 to 10 s.
  'wan2.7-videoedit': {
    label: 'Wan 2.7 Video Edit',
    modes: ['video-edit'],
    durations: { min: WAN_SOURCE_SECONDS.min, max: WAN_SOURCE_SECONDS.max },
    aspectRatios: [],
    audio: 'always',
    promptMaxLength: 5000,
    releasedAt: '2026-04-02',
  },
};

/** `parameters` the gateway writes itself from the request's own fields: `metadata` may not set them. */
export const WAN_GATEWAY_PARAMETERS: Readonly<Record<string, string>> = {
  size: 'size',
  resolution: 'resolution',
  ratio: 'aspect_ratio',
  duration: 'duration',
  audio: 'audio',
  seed: 'seed',
};
