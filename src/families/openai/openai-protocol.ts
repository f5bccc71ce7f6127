/** Wire shapes of an OpenAI-compatible Videos API (docs/upstream-protocols.md, Family O). */
export const OPENAI_VIDEOS_PATH = '/videos';
/** An OpenAI-compatible upstream's model list: `{data: [{id, ...}]}`. */
export const OPENAI_MODELS_PATH = '/models';
export const openAiVideoPath = (id: string): string => `/videos/${encodeURIComponent(id)}`;
export const openAiContentPath = (id: string): string => `${openAiVideoPath(id)}/content`;

/** What a task keeps to build its upstream call: the bytes of a file part stay in memory (OpenAiInputFiles). */
export type OpenAiTaskRequest = {
  prompt: string;
  /** Whole seconds, sent as OpenAI's string `seconds`. */
  seconds: number;
  size?: string;
  /** A JSON `input_reference` (an http(s) URL, or `{image_url}`), forwarded as it came. */
  inputReference?: string | { image_url: string };
  /** A multipart `input_reference` file part, by digest. */
  inputFile?: OpenAiFileRef;
};

export interface OpenAiFileRef {
  sha256: string;
  filename: string;
  mime: string;
  size: number;
}

export type OpenAiVideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** The video object of a submit answer and of a query. */
export interface OpenAiVideo {
  id?: string;
  object?: string;
  model?: string;
  status?: OpenAiVideoStatus | string;
  progress?: number;
  created_at?: number;
  completed_at?: number | null;
  expires_at?: number | null;
  seconds?: string;
  size?: string;
  error?: { code?: string; message?: string } | null;
}

/** `{"error": {message, type, param, code}}` with a 4xx/5xx status. */
export interface OpenAiErrorBody {
  error?: { message?: string; type?: string; param?: string | null; code?: string | null };
}

/** The JSON submit body (no file part). */
export function buildOpenAiJsonBody(request: OpenAiTaskRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel, prompt: request.prompt, seconds: String(request.seconds) };
  if (request.size !== undefined) body.size = request.size;
  if (request.inputReference !== undefined) body.input_reference = request.inputReference;
  return body;
}

/** The multipart submit body, as the official SDKs send it: text fields and the `input_reference` file part. */
export function buildOpenAiMultipartBody(
  request: OpenAiTaskRequest,
  upstreamModel: string,
  file: { bytes: Buffer; filename: string; mime: string },
): FormData {
  const form = new FormData();
  form.append('model', upstreamModel);
  form.append('prompt', request.prompt);
  form.append('seconds', String(request.seconds));
  if (request.size !== undefined) form.append('size', request.size);
  form.append('input_reference', new Blob([new Uint8Array(file.bytes)], { type: file.mime }), file.filename);
  return form;
}
