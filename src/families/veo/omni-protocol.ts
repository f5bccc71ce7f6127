import { VEO_API_VERSION, VeoImage } from './veo-protocol';

/** Wire shapes of Gemini Omni on the Interactions API (wire notes 5.2; python-genai `_gaos/types/interactions`). */
export const OMNI_CREATE_PATH = `${VEO_API_VERSION}/interactions`;
/** An interaction id as the create answer gives it (`v1_…`); anything else is not queried (it becomes part of a path). */
export const OMNI_INTERACTION_ID = /^[\w-]{1,200}$/;
export const omniInteractionPath = (id: string): string => `${OMNI_CREATE_PATH}/${encodeURIComponent(id)}`;
export const omniCancelPath = (id: string): string => `${omniInteractionPath(id)}/cancel`;

/** The largest video read inline from an interaction: its answer is held whole (as JSON) while it is decoded. */
export const OMNI_INLINE_VIDEO_MAX_BYTES = 128 * 1024 ** 2;
/**
 * How large an interaction's answer may be: a video inline (at most the store's VIDEO_MAX_BYTES, and at most
 * OMNI_INLINE_VIDEO_MAX_BYTES) as base64 (a third larger), with a MiB for the rest. A larger one is cut off
 * while it arrives (a transient error), so such a task ends at its deadline, refunded.
 */
export const omniAnswerMaxBytes = (videoMaxBytes: number): number =>
  Math.ceil((Math.min(videoMaxBytes, OMNI_INLINE_VIDEO_MAX_BYTES) * 4) / 3) + 1024 ** 2;

/** What an Omni task sends: the shape asked for and its images (the stored request's, inlined as base64). */
export interface OmniCreate {
  prompt?: string;
  durationSeconds: number;
  aspectRatio: string;
  resolution: string;
  image?: VeoImage;
  lastFrame?: VeoImage;
}

/**
 * `POST /v1beta/interactions`: the prompt as `input` (content blocks when there are images), the video's
 * shape in `response_format` (`duration` is a string: protobuf Duration's `"8s"`), the video as a Files
 * URI (`delivery: uri`, as Veo's), run in the background and stored so that it can be read and cancelled.
 * Two images are a first and a last frame only with `video_config.task: image_to_video` (else references).
 */
export function buildOmniCreateBody(model: string, create: OmniCreate): Record<string, unknown> {
  const images = [create.image, create.lastFrame].filter((image): image is VeoImage => image !== undefined);
  const text = create.prompt !== undefined && create.prompt !== '' ? [{ type: 'text', text: create.prompt }] : [];
  const input =
    images.length === 0
      ? (create.prompt ?? '')
      : [...text, ...images.map((image) => ({ type: 'image', data: image.bytesBase64Encoded, mime_type: image.mimeType }))];
  return {
    model,
    input,
    response_format: {
      type: 'video',
      aspect_ratio: create.aspectRatio,
      resolution: create.resolution,
      duration: `${create.durationSeconds}s`,
      delivery: 'uri',
    },
    ...(create.lastFrame ? { generation_config: { video_config: { task: 'image_to_video' } } } : {}),
    background: true,
    store: true,
  };
}

/** A content block of a step (the video one: `uri` or inline `data`). */
export interface OmniContent {
  type?: string;
  uri?: string;
  data?: string;
  mime_type?: string;
}

/** google.rpc.Status, as a step's `error`. */
export interface OmniStatus {
  code?: number;
  message?: string;
  details?: Array<{ '@type'?: string; reason?: string }>;
}

/** The Interaction resource (create answer, GET, cancel answer). */
export interface OmniInteraction {
  id?: string;
  status?: string;
  model?: string;
  steps?: Array<{ type?: string; content?: OmniContent[]; error?: OmniStatus }>;
  /** Diagnostic faults: `code` a URI naming the error type. */
  errors?: Array<{ code?: string; message?: string }>;
  usage?: { total_input_tokens?: number; total_output_tokens?: number; total_tokens?: number };
}
