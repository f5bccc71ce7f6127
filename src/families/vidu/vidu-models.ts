import type { AudioSupport, DurationSpec, ModelMode } from '../../catalog/catalog-entry';

/** Vidu's `prompt` limit in its current docs (older copies said 1500). */
export const VIDU_MAX_PROMPT = 5000;
/** `resolution` of the q2 and q3 models; 720p is their default (docs/upstream-protocols-aggregators.md, Vidu). */
export const VIDU_RESOLUTIONS = ['720p', '540p', '1080p'];
/** `aspect_ratio` (text-to-video only: with images the video follows them); 16:9 is the default. */
export const VIDU_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];
/** The most a data URI or file part may weigh: two of them, base64, stay under Vidu's 20 MB request body. */
export const VIDU_MAX_INLINE_IMAGE_BYTES = 7 * 1024 * 1024;

/**
 * Which body field carries the shared `audio`: `audio` (the q3 models' native audio-video, on by
 * default) or `bgm` (background music of the older models, off by default). A route option.
 */
export type ViduAudioField = 'audio' | 'bgm';

/** A builtin Vidu model: the data its catalog entry is made from (vidu-catalog.ts). */
export interface ViduBuiltinModel {
  modes: readonly ModelMode[];
  durations: DurationSpec;
  aspectRatios: readonly string[];
  audio: AudioSupport;
  audioField: ViduAudioField;
}

const ALL_MODES: readonly ModelMode[] = ['text-to-video', 'image-to-video', 'first-last-frame'];
/** viduq2-pro and viduq2-turbo are not among text2video's models (that is `viduq2`): images only. */
const IMAGE_MODES: readonly ModelMode[] = ['image-to-video', 'first-last-frame'];

/**
 * The builtin models (the platform docs' model lists, mirrored in [V1b]; text2video takes viduq3-pro,
 * viduq3-turbo, viduq2 and viduq1): q3 makes 1 to 16 s with native audio, q2 1 to 10 s (start-end2video
 * 1 to 8 s, which Vidu itself refuses past 8), both at 540p, 720p or 1080p.
 */
export const VIDU_MODELS: Readonly<Record<string, ViduBuiltinModel>> = {
  'viduq3-pro': {
    modes: ALL_MODES,
    durations: { min: 1, max: 16 },
    aspectRatios: VIDU_ASPECT_RATIOS,
    audio: 'optional',
    audioField: 'audio',
  },
  'viduq3-turbo': {
    modes: ALL_MODES,
    durations: { min: 1, max: 16 },
    aspectRatios: VIDU_ASPECT_RATIOS,
    audio: 'optional',
    audioField: 'audio',
  },
  'viduq2-pro': { modes: IMAGE_MODES, durations: { min: 1, max: 10 }, aspectRatios: [], audio: 'optional', audioField: 'bgm' },
  'viduq2-turbo': { modes: IMAGE_MODES, durations: { min: 1, max: 10 }, aspectRatios: [], audio: 'optional', audioField: 'bgm' },
};

/** Keys of Vidu's body the gateway writes itself from the request's own fields (or refuses): `metadata` may not set them. */
export const VIDU_GATEWAY_KEYS: Readonly<Record<string, string>> = {
  model: 'model',
  prompt: 'prompt',
  images: 'input_reference and last_frame',
  duration: 'duration',
  resolution: 'resolution',
  aspect_ratio: 'aspect_ratio',
  audio: 'audio',
  bgm: 'audio',
  seed: 'seed',
  callback_url: 'the webhooks of the gateway',
  // Off-peak tasks may take 48 hours: longer than a task may wait here.
  off_peak: 'nothing (off-peak tasks are not taken)',
};
