import type { DurationSpec } from '../../catalog/catalog-entry';

/** Kling's `mode`: `std` renders 720p, `pro` 1080p. */
export type KlingMode = 'std' | 'pro';
export const KLING_RESOLUTION_OF_MODE: Record<KlingMode, '720p' | '1080p'> = { std: '720p', pro: '1080p' };
export const KLING_DURATIONS = [5, 10];
/** Kling 3 (kling-v3, kling-v3-omni): any whole second from 3 to 15. */
export const KLING_V3_DURATIONS: DurationSpec = { min: 3, max: 15 };
export const KLING_RATIOS = ['16:9', '9:16', '1:1'];

/**
 * What one builtin Kling model takes (docs/upstream-protocols.md, Family Kling; per-model limits from
 * Kling's model matrix): the data its catalog entry is made from (kling-catalog.ts).
 */
export interface KlingBuiltinModel {
  textToVideo: boolean;
  /** The modes it renders in; the first is its default. */
  modes: readonly KlingMode[];
  /** `metadata.sound` (generated audio): v2.6 only. */
  sound: boolean;
  /** `metadata.cfg_scale`: not taken by the v2.x models. */
  cfgScale: boolean;
  /** `last_frame` (Kling's `image_tail`): in `pro` mode only, and not on every model. */
  lastFrame: boolean;
  /** Its lengths; absent, 5 or 10 s. */
  durations?: DurationSpec;
  /** Served on `/v1/videos/omni-video` (not text2video / image2video). */
  omni?: boolean;
  /** `YYYY-MM-DD` (docs/families.md, Kling). */
  releasedAt?: string;
  /** Edits and extends a stored video (omni-video's `video_list`: `base`, `feature`). */
  videoFromVideo?: boolean;
}

/** Kling 3.0 (kling-v3, and kling-v3-omni on omni-video): std and pro, sound, first and last frames, 3 to 15 s. */
const KLING_V3: KlingBuiltinModel = {
  textToVideo: true,
  modes: ['std', 'pro'],
  sound: true,
  cfgScale: false,
  lastFrame: true,
  durations: KLING_V3_DURATIONS,
  releasedAt: '2026-02-03',
};

export const KLING_MODELS: Readonly<Record<string, KlingBuiltinModel>> = {
  'kling-v2-6': { textToVideo: true, modes: ['pro'], sound: true, cfgScale: false, lastFrame: true },
  'kling-v2-5-turbo': { textToVideo: true, modes: ['std', 'pro'], sound: false, cfgScale: false, lastFrame: true },
  'kling-v2-1': { textToVideo: false, modes: ['std', 'pro'], sound: false, cfgScale: false, lastFrame: true },
  'kling-v2-1-master': { textToVideo: true, modes: ['pro'], sound: false, cfgScale: false, lastFrame: false },
  'kling-v1-6': { textToVideo: true, modes: ['std', 'pro'], sound: false, cfgScale: true, lastFrame: true },
  // Kling 3.0 (2026-02): 3 to 15 s with `sound`; the Omni model is the omni-video endpoint's.
  'kling-v3': KLING_V3,
  'kling-v3-omni': { ...KLING_V3, omni: true, videoFromVideo: true },
};

/** The omni-video endpoint's models, unless a route's `omni` option says: `kling-v3-omni`, `kling-video-o1` and their kind. */
export function klingOmniOf(upstreamModel: string): boolean {
  return /omni|^kling-video-o\d/i.test(upstreamModel);
}

/** Keys of Kling's body the gateway writes itself from the request's own fields: `metadata` may not set them. */
export const KLING_GATEWAY_KEYS = [
  'model_name',
  'model',
  'prompt',
  'negative_prompt',
  'duration',
  'aspect_ratio',
  'image',
  'image_tail',
  'callback_url',
  'external_task_id',
];

/** What the gateway writes on the omni-video endpoint besides: the frames go in `image_list`. */
export const KLING_OMNI_GATEWAY_KEYS = [...KLING_GATEWAY_KEYS, 'image_list'];
/** With a source video the gateway writes `video_list` too (and `mode`, from the source's resolution). */
export const KLING_SOURCE_GATEWAY_KEYS = [...KLING_OMNI_GATEWAY_KEYS, 'video_list', 'mode'];

/**
 * omni-video's `video_list` (upstream-protocols-wires.md, 4.3): one video of 3 to 10 s, 720 to 2160
 * pixels a side; a `feature` video (our extend: the next shot) makes 3 to 10 s, 5 by default
 * (UNCONFIRMED for kling-v3-omni: Kling O1's limits with a video).
 */
export const KLING_SOURCE_SECONDS = { min: 3, max: 10 };
export const KLING_SOURCE_PIXELS = { min: 720, max: 2160 };
export const KLING_EXTEND_SECONDS = { min: 3, max: 10, default: 5 };
