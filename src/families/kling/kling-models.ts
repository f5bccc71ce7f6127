/** Kling's `mode`: `std` renders 720p, `pro` 1080p. */
export type KlingMode = 'std' | 'pro';
export const KLING_RESOLUTION_OF_MODE: Record<KlingMode, '720p' | '1080p'> = { std: '720p', pro: '1080p' };
export const KLING_DURATIONS = [5, 10];
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
}

export const KLING_MODELS: Readonly<Record<string, KlingBuiltinModel>> = {
  'kling-v2-6': { textToVideo: true, modes: ['pro'], sound: true, cfgScale: false, lastFrame: true },
  'kling-v2-5-turbo': { textToVideo: true, modes: ['std', 'pro'], sound: false, cfgScale: false, lastFrame: true },
  'kling-v2-1': { textToVideo: false, modes: ['std', 'pro'], sound: false, cfgScale: false, lastFrame: true },
  'kling-v2-1-master': { textToVideo: true, modes: ['pro'], sound: false, cfgScale: false, lastFrame: false },
  'kling-v1-6': { textToVideo: true, modes: ['std', 'pro'], sound: false, cfgScale: true, lastFrame: true },
};

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
