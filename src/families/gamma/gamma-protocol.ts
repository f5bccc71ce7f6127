import { pixelSizeOf } from '../pixel-size';
import { ownValue } from '../../common/runtime/own-value';

/** Family C data plane: what the gateway stores for a task and the provider's wire shapes. */
export const GAMMA_TASKS_PATH = '/api/v3/contents/generations/tasks';
export const gammaTaskPath = (id: string): string => `${GAMMA_TASKS_PATH}/${encodeURIComponent(id)}`;

/** The validated request kept in `task.request` (written by GammaSubmitService). */
export type GammaTaskRequest = {
  prompt: string;
  /** Reference image URLs in the client's order: `asset://<id>` or http(s). */
  references: string[];
  resolution: '480p' | '720p' | '1080p';
  ratio?: string;
  duration: number;
  seed?: number;
  watermark?: boolean;
};

export type GammaContentItem =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string }; role: 'reference_image' | 'first_frame' | 'last_frame' };

export interface GammaSubmitBody {
  model: string;
  content: GammaContentItem[];
  resolution: string;
  ratio?: string;
  duration: number;
  seed?: number;
  watermark?: boolean;
}

export type GammaTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';

export interface GammaQueryBody {
  id?: string;
  model?: string;
  status?: GammaTaskStatus | string;
  error?: { code?: string; message?: string } | null;
  content?: { video_url?: string } | null;
  resolution?: string;
  ratio?: string;
  duration?: number;
  seed?: number;
  created_at?: number;
  updated_at?: number;
}

export interface GammaErrorBody {
  error?: { code?: string; message?: string };
}

/** The prompt first, then every reference image in order, as `reference_image`. */
export function buildGammaSubmitBody(request: GammaTaskRequest, upstreamModel: string): GammaSubmitBody {
  const body: GammaSubmitBody = {
    model: upstreamModel,
    content: [
      { type: 'text', text: request.prompt },
      ...request.references.map((url) => ({ type: 'image_url' as const, image_url: { url }, role: 'reference_image' as const })),
    ],
    resolution: request.resolution,
    duration: request.duration,
  };
  if (request.ratio !== undefined) body.ratio = request.ratio;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.watermark !== undefined) body.watermark = request.watermark;
  return body;
}

const SHORT_SIDE: Record<string, number> = { '480p': 480, '720p': 720, '1080p': 1080 };

/** `<width>x<height>` from resolution and ratio (short side = the resolution); null for `adaptive` or unknown values. */
export function outputSizeOf(resolution: unknown, ratio: unknown): string | undefined {
  const short = ownValue(SHORT_SIDE, String(resolution).toLowerCase());
  return short ? pixelSizeOf(short, ratio) : undefined;
}
