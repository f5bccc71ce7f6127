/** Wire shapes of MiniMax's video API v1 (docs/upstream-protocols.md, Family MiniMax Hailuo). */
import type { MinimaxResolution } from './minimax-models';

export const MINIMAX_SUBMIT_PATH = '/v1/video_generation';
export const minimaxQueryPath = (taskId: string): string => `/v1/query/video_generation?task_id=${encodeURIComponent(taskId)}`;
export const minimaxRetrievePath = (fileId: string): string => `/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`;

/** An image of a task: a URL the provider fetches, or bytes held in memory until the submit (sent as a data URL). */
export type MinimaxImage = { url: string } | { staged: MinimaxStagedImage };

export interface MinimaxStagedImage {
  sha256: string;
  mime: 'image/png' | 'image/jpeg';
  size: number;
}

/** What a task keeps to build its submit. */
export type MinimaxTaskRequest = {
  /** `v2`: the v2 API (MiniMax-H3); absent, v1. */
  api?: 'v2';
  prompt: string;
  duration: number;
  /** On the wire: `768P`; v2 also `2K`. */
  resolution: MinimaxResolution | '2K';
  /** v2's `ratio`, for text-to-video (frames set their own). */
  ratio?: string;
  firstFrame?: MinimaxImage;
  lastFrame?: MinimaxImage;
  /** The client's `metadata`, sent as it is (keys the gateway sets were refused). */
  metadata: Record<string, unknown>;
};

/** Every answer carries it; `status_code` 0 is success, whatever the HTTP status. */
export interface MinimaxBaseResp {
  status_code?: number;
  status_msg?: string;
}

export interface MinimaxAnswer {
  base_resp?: MinimaxBaseResp;
}

export interface MinimaxSubmitAnswer extends MinimaxAnswer {
  task_id?: string;
}

export interface MinimaxQueryAnswer extends MinimaxAnswer {
  task_id?: string;
  status?: string;
  file_id?: string | number;
  video_width?: number;
  video_height?: number;
}

export interface MinimaxRetrieveAnswer extends MinimaxAnswer {
  file?: { file_id?: number | string; download_url?: string; backup_download_url?: string; filename?: string };
}

/** The submit body; `image(ref)` turns a task's image into what `first_frame_image` takes (a URL or a data URL). */
export function buildMinimaxSubmitBody(
  request: MinimaxTaskRequest,
  upstreamModel: string,
  image: (ref: MinimaxImage) => string,
): Record<string, unknown> {
  return {
    ...request.metadata,
    model: upstreamModel,
    prompt: request.prompt,
    duration: request.duration,
    resolution: request.resolution,
    ...(request.firstFrame ? { first_frame_image: image(request.firstFrame) } : {}),
    ...(request.lastFrame ? { last_frame_image: image(request.lastFrame) } : {}),
  };
}
