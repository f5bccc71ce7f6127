import type { UrlOrInlineImage } from '../shared/url-or-inline-images.service';

/** Wire shapes of xAI's video API (docs/upstream-protocols-aggregators.md, section 4). */
export const XAI_GENERATIONS_PATH = '/v1/videos/generations';
/** A video edited from a prompt, and one continued from its last frame (vercel/ai `edit-video`, `extend-video`; the SDK's `extend`). */
export const XAI_EDITS_PATH = '/v1/videos/edits';
export const XAI_EXTENSIONS_PATH = '/v1/videos/extensions';
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
  /** A remix: the source video (the gateway's signed link), edited or extended; then only `duration` (extend) goes beside it. */
  source?: { operation: 'edit' | 'extend'; url: string };
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
  const { source } = request;
  // An edit takes no duration, aspect ratio or resolution (they follow the video); an extension its added seconds alone.
  if (source)
    return {
      ...request.extra,
      model: upstreamModel,
      prompt: request.prompt,
      video: { url: source.url },
      ...(source.operation === 'extend' ? { duration: request.duration } : {}),
    };
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

/** Where a task's create goes: a generation, an edit or an extension. */
export const xaiCreatePath = (request: XaiTaskRequest): string =>
  request.source ? (request.source.operation === 'edit' ? XAI_EDITS_PATH : XAI_EXTENSIONS_PATH) : XAI_GENERATIONS_PATH;

/** The create answer's `request_id`. */
export function xaiRequestIdOf(answer: unknown): string | undefined {
  const id = (answer as { request_id?: unknown } | undefined)?.request_id;
  return typeof id === 'string' && /^[\w-]{1,128}$/.test(id) ? id : undefined;
}
