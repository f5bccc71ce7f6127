import type { BetaMedia, BetaTaskRequest } from './beta-request';

/** Wire shapes of the family B provider (see docs/upstream-protocols.md, Family B). */
export const BETA_SUBMIT_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
export const betaQueryPath = (upstreamTaskId: string): string => `/api/v1/tasks/${encodeURIComponent(upstreamTaskId)}`;

export interface BetaSubmitBody {
  model: string;
  input: { prompt: string; media?: BetaMedia[] };
  parameters: {
    resolution: string;
    ratio?: string;
    duration?: number;
    watermark?: boolean;
    seed?: number;
    audio_setting?: string;
  };
}

export type BetaTaskStatus = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'UNKNOWN';

export interface BetaQueryBody {
  request_id?: string;
  output?: {
    task_id?: string;
    task_status?: BetaTaskStatus | string;
    submit_time?: string;
    scheduled_time?: string;
    end_time?: string;
    orig_prompt?: string;
    video_url?: string;
    code?: string;
    message?: string;
  };
  usage?: Record<string, number | string>;
}

/** Synchronous error body: `{request_id, code, message}` with a 4xx/5xx status. */
export interface BetaErrorBody {
  request_id?: string;
  code?: string;
  message?: string;
}

/**
 * The provider's submit body. Only t2v and r2v take a ratio (i2v follows the image, video-edit
 * the video); video-edit takes no duration but an audio setting.
 */
export function buildBetaSubmitBody(request: BetaTaskRequest, upstreamModel: string): BetaSubmitBody {
  const { capability } = request;
  const parameters: BetaSubmitBody['parameters'] = { resolution: request.resolution };
  if ((capability === 't2v' || capability === 'r2v') && request.ratio) parameters.ratio = request.ratio;
  if (capability !== 'video-edit' && request.duration !== null) parameters.duration = request.duration;
  if (request.watermark !== null) parameters.watermark = request.watermark;
  if (request.seed !== null) parameters.seed = request.seed;
  if (capability === 'video-edit' && request.audioSetting) parameters.audio_setting = request.audioSetting;
  const input: BetaSubmitBody['input'] = { prompt: request.prompt };
  if (request.media.length > 0) input.media = request.media.map(({ type, url }) => ({ type, url }));
  return { model: upstreamModel, input, parameters };
}
