import type { UrlOrInlineImage } from '../shared/url-or-inline-images.service';
import type { ViduAudioField } from './vidu-models';

/** Wire shapes of Vidu's ent/v2 API (docs/upstream-protocols-aggregators.md, section 3). */
export type ViduEndpoint = 'text2video' | 'img2video' | 'start-end2video';
export const viduCreatePath = (endpoint: ViduEndpoint): string => `/ent/v2/${endpoint}`;
export const viduQueryPath = (id: string): string => `/ent/v2/tasks/${encodeURIComponent(id)}/creations`;
export const viduCancelPath = (id: string): string => `/ent/v2/tasks/${encodeURIComponent(id)}/cancel`;

/** `Authorization: Token <key>`: Vidu's scheme, not Bearer. */
export const viduAuthorization = (apiKey: string): string => `Token ${apiKey}`;

/** What a task keeps to build its upstream call (`task.request`). */
export type ViduTaskRequest = {
  endpoint: ViduEndpoint;
  prompt?: string;
  duration: number;
  resolution: string;
  /** text2video only: with images the video follows them. */
  aspectRatio?: string;
  seed?: number;
  /** The shared `audio` on the field the route names (`audio` on q3, `bgm` before). */
  audio?: { field: ViduAudioField; value: boolean };
  /** The start frame, then (start-end2video) the end frame. */
  images?: UrlOrInlineImage[];
  /** The client's `metadata`, sent as it is (no key the gateway sets). */
  extra: Record<string, unknown>;
};

/** The create answer (`task_id`, `state`, `credits`, ...) and the query answer (`id`, `state`, `err_code`, `credits`, `creations`). */
export interface ViduTask {
  task_id?: unknown;
  id?: unknown;
  state?: unknown;
  err_code?: unknown;
  credits?: unknown;
  bgm?: unknown;
  off_peak?: unknown;
  creations?: Array<{ id?: unknown; url?: unknown; cover_url?: unknown; watermarked_url?: unknown }>;
}

/** `{code: <http>, reason: "<ErrorCode>", message, metadata: {trace_id}}` with a 4xx/5xx status. */
export interface ViduErrorBody {
  code?: unknown;
  reason?: unknown;
  message?: unknown;
  metadata?: { trace_id?: unknown };
}

/** The create body: the client's metadata first, then the fields the gateway sets (`images` already as URLs or data URIs). */
export function buildViduBody(request: ViduTaskRequest, upstreamModel: string, images: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...request.extra,
    model: upstreamModel,
    duration: request.duration,
    resolution: request.resolution,
  };
  if (request.prompt !== undefined) body.prompt = request.prompt;
  if (request.aspectRatio !== undefined) body.aspect_ratio = request.aspectRatio;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.audio) body[request.audio.field] = request.audio.value;
  if (images.length > 0) body.images = [...images];
  return body;
}

/** The create answer's task id: a string (a long decimal), or an integer JSON could carry exactly. */
export function viduTaskIdOf(answer: unknown): string | undefined {
  const id = (answer as ViduTask | undefined)?.task_id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  return typeof id === 'string' && /^[\w-]{1,128}$/.test(id) ? id : undefined;
}
