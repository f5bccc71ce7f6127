/** Wire shapes of Kling's video API (docs/upstream-protocols.md, Family Kling). */
export type KlingEndpoint = 'text2video' | 'image2video';
export const klingCreatePath = (endpoint: KlingEndpoint): string => `/v1/videos/${endpoint}`;
/** A task is queried on the path of the endpoint that created it. */
export const klingQueryPath = (endpoint: KlingEndpoint, id: string): string => `/v1/videos/${endpoint}/${encodeURIComponent(id)}`;

/** An image as Kling takes it: an http(s) URL, or raw base64 (no `data:` prefix) kept in memory until the submit (by digest). */
export type KlingImage = { url: string } | { staged: string };

/** What a task keeps to build its upstream call. */
export type KlingTaskRequest = {
  endpoint: KlingEndpoint;
  prompt?: string;
  negativePrompt?: string;
  duration: number;
  mode: 'std' | 'pro';
  aspectRatio?: string;
  image?: KlingImage;
  imageTail?: KlingImage;
  /** The client's `metadata`, sent as it is (no key the gateway sets). */
  extra: Record<string, unknown>;
};

/** `{code, message, request_id, data}`: code 0 is success; the HTTP status follows Kling's table. */
export interface KlingEnvelope {
  code?: unknown;
  message?: unknown;
  request_id?: unknown;
  data?: KlingTaskData;
}

export interface KlingTaskData {
  task_id?: unknown;
  task_status?: unknown;
  task_status_msg?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
  task_result?: { videos?: Array<{ id?: unknown; url?: unknown; duration?: unknown }> };
}

/** The create body: the client's metadata first, then the fields the gateway sets. */
export function buildKlingBody(
  request: KlingTaskRequest,
  upstreamModel: string,
  base64Of: (sha256: string) => string,
): Record<string, unknown> {
  const image = (value: KlingImage) => ('url' in value ? value.url : base64Of(value.staged));
  const body: Record<string, unknown> = {
    ...request.extra,
    model_name: upstreamModel,
    mode: request.mode,
    duration: String(request.duration),
  };
  if (request.prompt !== undefined) body.prompt = request.prompt;
  if (request.negativePrompt !== undefined) body.negative_prompt = request.negativePrompt;
  if (request.aspectRatio !== undefined) body.aspect_ratio = request.aspectRatio;
  if (request.image) body.image = image(request.image);
  if (request.imageTail) body.image_tail = image(request.imageTail);
  return body;
}
