import type { RunwayTaskRequest } from './runway-request';

/** Wire shapes of Runway's API (docs/upstream-protocols.md, Family Runway; runwayml/sdk-node). */
export const RUNWAY_API_VERSION = '2024-11-06';
/** Sent on every call: Runway refuses a call without it. */
export const RUNWAY_HEADERS = { 'X-Runway-Version': RUNWAY_API_VERSION };
export const RUNWAY_TEXT_TO_VIDEO_PATH = '/v1/text_to_video';
export const RUNWAY_IMAGE_TO_VIDEO_PATH = '/v1/image_to_video';
export const RUNWAY_VIDEO_TO_VIDEO_PATH = '/v1/video_to_video';
export const runwayTaskPath = (id: string): string => `/v1/tasks/${encodeURIComponent(id)}`;

export type RunwayTaskStatus = 'PENDING' | 'THROTTLED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** `GET /v1/tasks/{id}`. */
export interface RunwayTask {
  id?: string;
  createdAt?: string;
  status?: RunwayTaskStatus | string;
  /** 0 to 1, while RUNNING. */
  progress?: number;
  /** Signed URLs (no auth), valid 24 to 48 h; a fresh query hands out new ones. */
  output?: string[];
  failure?: string;
  failureCode?: string;
}

/** `{"error": "<human text>", "issues": [{code, path, message}], "docUrl"}` with a 4xx/5xx status. */
export interface RunwayErrorBody {
  error?: unknown;
  issues?: Array<{ code?: unknown; path?: unknown; message?: unknown }>;
}

/** The create body: the task's fields under Runway's names, the frames as `promptImage` positions, then the client's metadata. */
export function buildRunwayBody(
  request: RunwayTaskRequest,
  upstreamModel: string,
  imageUri: (ref: NonNullable<RunwayTaskRequest['firstFrame']>) => string,
): Record<string, unknown> {
  // Video-to-video takes the source and what to make of it; its ratio and length are the source's.
  if (request.mode === 'video') {
    const edit: Record<string, unknown> = { ...request.extra, model: upstreamModel, videoUri: request.videoUri };
    if (request.promptText !== undefined) edit.promptText = request.promptText;
    if (request.seed !== undefined) edit.seed = request.seed;
    return edit;
  }
  const body: Record<string, unknown> = { ...request.extra, model: upstreamModel, ratio: request.ratio, duration: request.duration };
  if (request.promptText !== undefined) body.promptText = request.promptText;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.negativePrompt !== undefined) body.negativePrompt = request.negativePrompt;
  if (request.firstFrame) {
    const frames = [{ uri: imageUri(request.firstFrame), position: 'first' }];
    if (request.lastFrame) frames.push({ uri: imageUri(request.lastFrame), position: 'last' });
    body.promptImage = frames.length === 1 ? frames[0].uri : frames;
  }
  return body;
}

const SUBMIT_PATHS: Readonly<Record<RunwayTaskRequest['mode'], string>> = {
  text: RUNWAY_TEXT_TO_VIDEO_PATH,
  image: RUNWAY_IMAGE_TO_VIDEO_PATH,
  video: RUNWAY_VIDEO_TO_VIDEO_PATH,
};

export const runwaySubmitPath = (request: RunwayTaskRequest): string => SUBMIT_PATHS[request.mode];
