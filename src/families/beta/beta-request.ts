/**
 * The validated family B request the gateway stores on a task (`task.request`) and the adapter
 * turns into the provider's submit body. Built by BetaDrafts; the rules of which capability
 * takes which parameter live in `buildBetaSubmitBody`.
 */
export type BetaCapability = 't2v' | 'i2v' | 'r2v' | 'video-edit';

export type BetaMediaType = 'first_frame' | 'reference_image' | 'video';

export interface BetaMedia {
  type: BetaMediaType;
  url: string;
}

/** `720P`, `1080P`: one of the model's resolutions, as the provider spells it. */
export type BetaResolution = string;
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
