import type { StagedImageRef } from '../shared/staged-image-inputs.service';

/** Wire shapes of Veo on the Gemini API (docs/upstream-protocols.md, Family Veo; js-genai's mldev converters). */
export const VEO_API_VERSION = '/v1beta';
export const veoSubmitPath = (upstreamModel: string): string =>
  `${VEO_API_VERSION}/models/${encodeURIComponent(upstreamModel)}:predictLongRunning`;
/** An operation name as the create answer gives it; anything else is not queried (it becomes part of a path). */
export const VEO_OPERATION_NAME = /^models\/[\w.-]{1,64}\/operations\/[\w-]{1,64}$/;
export const veoOperationPath = (name: string): string => `${VEO_API_VERSION}/${name}`;
/** Listing one model proves the key works without generating anything. */
export const VEO_PROBE_PATH = `${VEO_API_VERSION}/models?pageSize=1`;

/** What a task keeps to build its upstream call: images by reference (their bytes stay in memory, or are fetched again). */
export type VeoTaskRequest = {
  prompt?: string;
  durationSeconds: number;
  aspectRatio: string;
  resolution: string;
  negativePrompt?: string;
  image?: StagedImageRef;
  lastFrame?: StagedImageRef;
  /** The client's `metadata`, sent among `parameters` as it is (e.g. personGeneration, enhancePrompt). */
  extraParameters?: Record<string, unknown>;
};

export interface VeoImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

/** The predictLongRunning body; one video per task (the price is for one). */
export function buildVeoSubmitBody(request: VeoTaskRequest, images: { image?: VeoImage; lastFrame?: VeoImage }): Record<string, unknown> {
  const instance: Record<string, unknown> = {};
  if (request.prompt !== undefined) instance.prompt = request.prompt;
  if (images.image) instance.image = images.image;
  if (images.lastFrame) instance.lastFrame = images.lastFrame;
  const parameters: Record<string, unknown> = {
    ...request.extraParameters,
    aspectRatio: request.aspectRatio,
    durationSeconds: request.durationSeconds,
    resolution: request.resolution,
    sampleCount: 1,
  };
  if (request.negativePrompt !== undefined) parameters.negativePrompt = request.negativePrompt;
  return { instances: [instance], parameters };
}

/** A long-running operation (create answer and GET). */
export interface VeoOperation {
  name?: string;
  done?: boolean;
  error?: { code?: number; message?: string; status?: string };
  response?: {
    generateVideoResponse?: {
      generatedSamples?: Array<{ video?: { uri?: string; mimeType?: string } }>;
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}

/** The standard Google error envelope. */
export interface VeoErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: Array<{ '@type'?: string; reason?: string; retryDelay?: string }>;
  };
}
