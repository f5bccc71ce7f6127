/** Wire shapes of MiniMax's video API v2 (upstream-protocols-wires.md, 3): MiniMax-H3's `content` array. */
import type { MinimaxImage, MinimaxTaskRequest } from './minimax-protocol';

export const MINIMAX_V2_SUBMIT_PATH = '/v2/video_generation';
export const minimaxV2QueryPath = (taskId: string): string => `/v2/query/video_generation/${encodeURIComponent(taskId)}`;

/** v2's error envelope (non-2xx, or a 200 without `task_id`/`task`): `http_code` is a string. */
export interface MinimaxV2ErrorEnvelope {
  type?: unknown;
  error?: { type?: unknown; message?: unknown; http_code?: unknown };
  request_id?: unknown;
}

export interface MinimaxV2Task {
  id?: unknown;
  model?: unknown;
  status?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
  content?: { url?: unknown };
  resolution?: unknown;
  duration?: unknown;
  ratio?: unknown;
  usage?: Record<string, unknown>;
  /** On failure: `code` a string (a number in some copies), `message` the provider's words. */
  error?: { code?: unknown; message?: unknown } | null;
}

export interface MinimaxV2QueryAnswer extends MinimaxV2ErrorEnvelope {
  task?: MinimaxV2Task;
}

/** A `content` item: the one text, or a frame (`first_frame`, `last_frame`). */
export type MinimaxV2ContentItem =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string }; role: 'first_frame' | 'last_frame' };

/**
 * The v2 create body: the client's metadata (`aigc_watermark`...), then what the gateway sets; the
 * prompt as the one text item, the frames by role; `ratio` only for text-to-video.
 */
export function buildMinimaxV2Body(
  request: MinimaxTaskRequest,
  upstreamModel: string,
  image: (ref: MinimaxImage) => string,
): Record<string, unknown> {
  const content: MinimaxV2ContentItem[] = [{ type: 'text', text: request.prompt }];
  if (request.firstFrame) content.push({ type: 'image_url', image_url: { url: image(request.firstFrame) }, role: 'first_frame' });
  if (request.lastFrame) content.push({ type: 'image_url', image_url: { url: image(request.lastFrame) }, role: 'last_frame' });
  return {
    ...request.metadata,
    model: upstreamModel,
    content,
    duration: request.duration,
    resolution: request.resolution,
    ...(request.ratio !== undefined ? { ratio: request.ratio } : {}),
  };
}
