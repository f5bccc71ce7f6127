import type { ModelMode } from '../../catalog/catalog-entry';

/** `aspect_ratio` (the SDK's VideoAspectRatio); 16:9 first, the default. */
export const XAI_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3'];
/** 1 to 15 s; 8 is the REST reference's default (litellm sends 6: docs/families.md, xAI). */
export const XAI_DURATIONS = { min: 1, max: 15 };
export const XAI_DEFAULT_DURATION = 8;
/** `/v1/videos/extensions`: the seconds it adds (SDK `extend`: 1 to 10, default 6), and the source it continues (2 to 30 s). */
export const XAI_EXTEND_SECONDS = { min: 1, max: 10, default: 6 };
export const XAI_EXTEND_SOURCE_SECONDS = { min: 2, max: 30 };
/** The most a data URI or file part may weigh (xAI documents no limit: UNCONFIRMED). */
export const XAI_MAX_INLINE_IMAGE_BYTES = 10 * 1024 * 1024;
/** xAI's unit of cost: 1 USD is 10^10 ticks. */
export const USD_TICKS_PER_USD = 10_000_000_000;

/** A builtin xAI model: the data its catalog entry is made from (xai-catalog.ts). */
export interface XaiBuiltinModel {
  modes: readonly ModelMode[];
  /** The first is the default (480p, the cheapest and the API's own default). */
  resolutions: readonly string[];
}

/**
 * The builtin models (docs/upstream-protocols-aggregators.md, xAI; the SDK's VideoResolution): both
 * make 1 to 15 s from a prompt or a first frame, with native audio; 1080p only on 1.5 (the SDK warns,
 * xAI answers 400), and edit (`/v1/videos/edits`) or extend (`/v1/videos/extensions`) a video. There
 * is no last frame ("xAI video models do not support last_frame", vercel/ai).
 */
export const XAI_MODELS: Readonly<Record<string, XaiBuiltinModel>> = {
  'grok-imagine-video': { modes: ['text-to-video', 'image-to-video', 'video-edit', 'video-extend'], resolutions: ['480p', '720p'] },
  'grok-imagine-video-1.5': {
    modes: ['text-to-video', 'image-to-video', 'video-edit', 'video-extend'],
    resolutions: ['480p', '720p', '1080p'],
  },
};

/** Keys of xAI's body the gateway writes itself, or that would send the video elsewhere: `metadata` may not set them. */
export const XAI_GATEWAY_KEYS: Readonly<Record<string, string>> = {
  model: 'model',
  prompt: 'prompt',
  image: 'input_reference',
  duration: 'duration',
  resolution: 'resolution',
  aspect_ratio: 'aspect_ratio',
  size: 'size',
  generate_audio: 'audio',
  reference_images: 'nothing (reference-to-video is not taken)',
  reference_audios: 'nothing (reference-to-video is not taken)',
  video: 'a remix (POST /v1/videos/{id}/remix, or metadata.source_task_id)',
  // The gateway keeps the video itself: it must come back at `video.url`.
  output: 'nothing (the gateway stores the video)',
  storage_options: 'nothing (the gateway stores the video)',
};
