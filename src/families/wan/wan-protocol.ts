import type { ModelMode } from '../../catalog/catalog-entry';
import type { HostedImageRef } from '../shared/hosted-image-inputs.service';
import type { InputMap } from '../shared/input-map';
import { WAN_LEGACY_SIZES, WAN_RESOLUTION_VALUES, type WanProtocol } from './wan-models';

/** Wire shapes of DashScope's video synthesis (docs/upstream-protocols-wires.md, section 2). */
export const WAN_CREATE_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
export const wanTaskPath = (id: string): string => `/api/v1/tasks/${encodeURIComponent(id)}`;
/** The official SDK's cancel (dashscope-sdk-python, `BaseAsyncApi.cancel`: "Cancel PENDING task"). */
export const wanCancelPath = (id: string): string => `${wanTaskPath(id)}/cancel`;
/** Required on the create call: without it DashScope refuses "current user api does not support synchronous calls". */
export const WAN_ASYNC_HEADERS = { 'X-DashScope-Async': 'enable' };

/** What a task keeps to build its upstream call (`task.request`). */
export type WanTaskRequest = {
  protocol: WanProtocol;
  mode: ModelMode;
  /** The settled fields under their DashScope names (`prompt`, `duration`, `resolution`, `ratio`, `audio`, ...), images aside. */
  input: Record<string, unknown>;
  /** The frames under their DashScope names (`img_url`; `first_frame`, `last_frame`): a URL, or a data URI held until the submit. */
  images: Record<string, HostedImageRef>;
  /** The client's `metadata`, sent in `parameters` as it is (no key the gateway sets). */
  extra: Record<string, unknown>;
};

/** The create answer and the task query: `output.task_id` and `task_status`, a failure's `output.code`, `usage` once done. */
export interface WanTaskAnswer {
  request_id?: unknown;
  output?: {
    task_id?: unknown;
    task_status?: unknown;
    submit_time?: unknown;
    scheduled_time?: unknown;
    end_time?: unknown;
    video_url?: unknown;
    code?: unknown;
    message?: unknown;
  };
  usage?: Record<string, unknown>;
  /** A create answered 200 with an error (new-api reads it so). */
  code?: unknown;
}

/** `{request_id, code, message}` with a 4xx/5xx status. */
export interface WanErrorBody {
  request_id?: unknown;
  code?: unknown;
  message?: unknown;
}

const RESOLUTION = { field: 'resolution', values: WAN_RESOLUTION_VALUES };
const TEXT = { prompt: { field: 'prompt' }, negative_prompt: { field: 'negative_prompt' }, seed: { field: 'seed' } };

/**
 * Where each of the gateway's fields goes on a wire, as the shared hosted rules read an input map:
 * a field a map does not name is a 400 naming it. With a first frame neither wire takes an aspect
 * ratio (the video follows the image); only the legacy wire has an `audio` switch, and only the media
 * wire a last frame (wan2.7-i2v's `last_frame`; the legacy kf2v models are another path, not served).
 */
export function wanInputMap(protocol: WanProtocol, withImage: boolean): InputMap {
  const seconds = { field: 'duration' };
  if (protocol === 'legacy')
    return withImage
      ? { ...TEXT, seconds, resolution: RESOLUTION, audio: { field: 'audio' }, first_frame: { field: 'img_url' } }
      : { ...TEXT, seconds, resolution: RESOLUTION, audio: { field: 'audio' }, aspect_ratio: { field: 'ratio' } };
  return withImage
    ? { ...TEXT, seconds, resolution: RESOLUTION, first_frame: { field: 'first_frame' }, last_frame: { field: 'last_frame' } }
    : { ...TEXT, seconds, resolution: RESOLUTION, aspect_ratio: { field: 'ratio' } };
}

/** `input` keys of the body; every other settled field is a `parameters` key. */
const INPUT_KEYS = new Set(['prompt', 'negative_prompt']);

/**
 * The create body `{model, input, parameters}`: the client's metadata first in `parameters`, then the
 * fields the gateway settled. The legacy wire's text-to-video takes `size` (`1280*720`) for its
 * resolution and ratio; the media wire sends its frames as `input.media[]`. `uri` writes an image as
 * the provider takes it (its URL, or a data URI).
 */
export function buildWanBody(
  request: WanTaskRequest,
  upstreamModel: string,
  uri: (image: HostedImageRef) => string,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = { ...request.extra };
  for (const [key, value] of Object.entries(request.input)) (INPUT_KEYS.has(key) ? input : parameters)[key] = value;
  if (request.protocol === 'legacy' && request.mode === 'text-to-video') {
    // No `ratio` on this wire: the shape is the size's (16:9 unless asked).
    const size = WAN_LEGACY_SIZES[String(parameters.resolution)]?.[String(parameters.ratio ?? '16:9')];
    delete parameters.ratio;
    if (size) {
      delete parameters.resolution;
      parameters.size = size;
    }
  }
  const frames = Object.entries(request.images).map(([type, image]) => ({ type, url: uri(image) }));
  if (request.protocol === 'media' && frames.length > 0) input.media = frames;
  else for (const { type, url } of frames) input[type] = url;
  return { model: upstreamModel, input, parameters };
}

/** The create answer's `output.task_id`. */
export function wanTaskIdOf(answer: unknown): string | undefined {
  const id = (answer as WanTaskAnswer | undefined)?.output?.task_id;
  return typeof id === 'string' && /^[\w-]{1,128}$/.test(id) ? id : undefined;
}
