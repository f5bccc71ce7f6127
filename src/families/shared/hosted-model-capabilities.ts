import type { BuiltinModel } from './builtin-entry';

/** What a model can make, as a builtin entry says it: the same on every platform that hosts the model. */
export type HostedModelCapabilities = Pick<
  BuiltinModel,
  'modes' | 'durations' | 'defaultDuration' | 'resolutions' | 'aspectRatios' | 'audio' | 'promptMaxLength'
>;

/** Kling 2.5 Turbo Pro, which both fal and Replicate host: one model, so its capabilities are written once. */
export const KLING_V2_5_TURBO_PRO: HostedModelCapabilities = {
  modes: ['text-to-video', 'image-to-video'],
  durations: [5, 10],
  defaultDuration: 5,
  resolutions: ['1080p'],
  aspectRatios: ['16:9', '9:16', '1:1'],
  audio: 'none',
  promptMaxLength: 2500,
};
