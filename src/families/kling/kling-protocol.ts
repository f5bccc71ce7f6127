/**
 * Wire shapes of Kling's video API (docs/upstream-protocols.md, Family Kling; omni-video:
 * upstream-protocols-wires.md, 4). Each endpoint is created and queried on its own path. Video from
 * video is omni-video's `video_list` (Kling's `video-extend` takes only its own `video_id`: not used).
 */
export type KlingEndpoint = 'text2video' | 'image2video' | 'omni-video';
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
  /** A video made from a stored one (omni-video only): its `video_list` item; a `base` video sends no duration or aspect ratio. */
  source?: KlingSourceVideo;
};

/**
 * omni-video's `video_list` item (upstream-protocols-wires.md, 4.3): `base` is the video to edit,
 * `feature` a reference (the gateway's extend: the next shot); the URL is the gateway's signed link.
 */
export interface KlingSourceVideo {
  video_url: string;
  refer_type: 'base' | 'feature';
  keep_original_sound: 'yes' | 'no';
}

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
  /** What the task cost the account in Kling's units, as a decimal string (`"1.5"`). */
  final_unit_deduction?: unknown;
}

/** omni-video's frames: `image_list` items, a first and an end frame by `type`. */
export interface KlingOmniImage {
  image_url: string;
  type?: 'first_frame' | 'end_frame';
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
    // An edit's length follows its video: Kling takes no duration with a `base` video.
    ...(request.source?.refer_type === 'base' ? {} : { duration: String(request.duration) }),
  };
  if (request.source) body.video_list = [request.source];
  if (request.prompt !== undefined) body.prompt = request.prompt;
  if (request.negativePrompt !== undefined) body.negative_prompt = request.negativePrompt;
  if (request.aspectRatio !== undefined) body.aspect_ratio = request.aspectRatio;
  if (request.endpoint === 'omni-video') {
    const frames: KlingOmniImage[] = [
      ...(request.image ? [{ image_url: image(request.image), type: 'first_frame' as const }] : []),
      ...(request.imageTail ? [{ image_url: image(request.imageTail), type: 'end_frame' as const }] : []),
    ];
    if (frames.length > 0) body.image_list = frames;
    return body;
  }
  if (request.image) body.image = image(request.image);
  if (request.imageTail) body.image_tail = image(request.imageTail);
  return body;
}
