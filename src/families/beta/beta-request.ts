/**
 * The validated family B request the gateway stores on a task (`task.request`) and the adapter
 * turns into the provider's submit body. Built by BetaSubmitService; the rules of which model
 * takes which parameter live in `buildBetaSubmitBody`.
 */
export type BetaCapability = 't2v' | 'i2v' | 'r2v' | 'video-edit';

export type BetaMediaType = 'first_frame' | 'reference_image' | 'video';

export interface BetaMedia {
  type: BetaMediaType;
  url: string;
}

export type BetaResolution = '720P' | '1080P';
export type BetaAudioSetting = 'auto' | 'origin';

export type BetaTaskRequest = {
  capability: BetaCapability;
  /** Already truncated to the provider's limit. */
  prompt: string;
  /** In the order the provider receives them (`[Image N]` follows the reference images' order). */
  media: BetaMedia[];
  resolution: BetaResolution;
  /** Seconds; null for video-edit (the output follows the input video). */
  duration: number | null;
  /** Null for i2v and video-edit (the output follows the input). */
  ratio: string | null;
  /** Null: the provider's default (true). */
  watermark: boolean | null;
  seed: number | null;
  /** video-edit only. */
  audioSetting: BetaAudioSetting | null;
};

/** Public model id -> capability; also the list of family B models. */
export const BETA_MODELS: Record<string, BetaCapability> = {
  'beta-1.0-t2v': 't2v',
  'beta-1.0-i2v': 'i2v',
  'beta-1.0-r2v': 'r2v',
  'beta-1.0-video-edit': 'video-edit',
};
