import type { UrlOrInlineImage } from '../shared/url-or-inline-images.service';

/** Wire shapes of xAI's video API (docs/upstream-protocols-aggregators.md, section 4). */
export const XAI_GENERATIONS_PATH = '/v1/videos/generations';
/** A request is queried at `/v1/videos/{id}`, not under `/generations`. */
export const xaiQueryPath = (id: string): string => `/v1/videos/${encodeURIComponent(id)}`;

/** What a task keeps to build its upstream call (`task.request`). */
export type XaiTaskRequest = {
  prompt: string;
  duration: number;
  resolution: string;
  /** Sent when the client asked, or for text-to-video (the entry's default). */
  aspectRatio?: string;
  /** The first frame (`image: {url}`). */
  image?: UrlOrInlineImage;
  /** `generate_audio`; absent: xAI's default. */
  generateAudio?: boolean;
  /** The client's `metadata`, sent as it is (no key the gateway sets). */
  extra: Record<string, unknown>;
};

/** `GET /v1/videos/{id}`: 202 while running (maybe with no body), 200 once done, failed or expired. */
export interface XaiVideoAnswer {
  status?: unknown;
  progress?: unknown;
  model?: unknown;
  video?: { url?: unknown; duration?: unknown; respect_moderation?: unknown };
  usage?: { cost_in_usd_ticks?: unknown };
  error?: { code?: unknown; message?: unknown } | unknown;
}

/** xAI's error bodies: `{error: {message, type, param, code}}`, `{code, error}` or `{error}` (vercel/ai's xai-error.ts). */
export interface XaiErrorBody {
  code?: unknown;
  error?: unknown;
  message?: unknown;
}

/** The create body: the client's metadata first, then the fields the gateway sets (`image` already a URL or data URI). */
export function buildXaiBody(request: XaiTaskRequest, upstreamModel: string, image: string | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...request.extra,
    model: upstreamModel,
    prompt: request.prompt,
    duration: request.duration,
    resolution: request.resolution,
  };
  if (request.aspectRatio !== undefined) body.aspect_ratio = request.aspectRatio;
  if (image !== undefined) body.image = { url: image };
  if (request.generateAudio !== undefined) body.generate_audio = request.generateAudio;
  return body;
}

/** The create answer's `request_id`. */
export function xaiRequestIdOf(answer: unknown): string | undefined {
  const id = (answer as { request_id?: unknown } | undefined)?.request_id;
  return typeof id === 'string' && /^[\w-]{1,128}$/.test(id) ? id : undefined;
}
