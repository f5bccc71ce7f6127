import { askedText } from '../../simulator-shared/asked-video';
import type { AskedVideo } from '../../simulator-shared/emulator-http';
import { textOrEmpty } from '../../simulator-shared/request-fields';

/** What the emulator serves of Gemini Omni: Google's ids, their lengths and resolutions (the preview id is shut down). */
export const OMNI_SERVED: Readonly<Record<string, { seconds: readonly number[]; resolutions: readonly string[] }>> = {
  'gemini-omni-1.1-flash': { seconds: range(3, 10), resolutions: ['360p', '720p', '1080p', '4k'] },
  'gemini-omni-1.2-flash': { seconds: range(3, 15), resolutions: ['360p', '720p', '1080p', '4k'] },
};
export const OMNI_RETIRED = ['gemini-omni-flash-preview'];
/** Google bills a second of 720p video as 5,792 output tokens. */
const TOKENS_PER_SECOND = 5_792;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

/** A create body checked as the Interactions API would: the refusal's message, or what the interaction asked. */
export function checkOmniCreate(body: Record<string, unknown>): string | { prompt: string; asked: AskedVideo } {
  const served = OMNI_SERVED[textOrEmpty(body.model)];
  const input = body.input;
  const blocks = Array.isArray(input) ? (input as Array<Record<string, unknown>>) : [];
  const prompt = typeof input === 'string' ? input : blocks.map((block) => textOrEmpty(block?.text)).join(' ');
  if (prompt.trim() === '' && !blocks.some((block) => block?.type === 'image')) return 'input is required.';
  if (blocks.some((block) => block?.type === 'image' && (typeof block.data !== 'string' || typeof block.mime_type !== 'string')))
    return 'An image block needs data and mime_type.';
  const format = (body.response_format ?? {}) as Record<string, unknown>;
  if (format.type !== 'video') return 'response_format.type must be video for this model.';
  const duration = /^(\d+)s$/.exec(textOrEmpty(format.duration));
  if (format.duration !== undefined && (!duration || !served.seconds.includes(Number(duration[1]))))
    return 'Unsupported response_format.duration.';
  if (format.resolution !== undefined && !served.resolutions.includes(textOrEmpty(format.resolution)))
    return 'Unsupported response_format.resolution.';
  if (format.aspect_ratio !== undefined && !['16:9', '9:16'].includes(textOrEmpty(format.aspect_ratio)))
    return 'Unsupported response_format.aspect_ratio.';
  for (const unsupported of ['system_instruction', 'negative_prompt', 'seed'])
    if (unsupported in body) return `${unsupported} is not supported by this model.`;
  return {
    prompt,
    asked: {
      seconds: duration ? Number(duration[1]) : 8,
      resolution: askedText(format.resolution) ?? '720p',
      aspectRatio: askedText(format.aspect_ratio) ?? '16:9',
    },
  };
}

/**
 * The interaction as Google answers it in each state (the video a Files URI, or its bytes inline as base64
 * `data` with `videoData`; its usage in output tokens).
 */
export function omniInteractionBody(
  id: string,
  model: string,
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled',
  extra: { videoUri?: string; videoData?: string; seconds?: number; error?: number; safety?: boolean } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = { id, object: 'interaction', model, status };
  if (status === 'completed') {
    const tokens = TOKENS_PER_SECOND * (extra.seconds ?? 8);
    const video = extra.videoData !== undefined ? { data: extra.videoData } : { uri: extra.videoUri };
    body.steps = [
      { type: 'user_input', content: [{ type: 'text', text: '…' }] },
      { type: 'model_output', content: [{ type: 'video', mime_type: 'video/mp4', ...video }] },
    ];
    body.usage = {
      total_input_tokens: 12,
      total_output_tokens: tokens,
      total_tokens: tokens + 12,
      output_tokens_by_modality: [{ modality: 'video', tokens }],
    };
  }
  if (status === 'failed') {
    const error = extra.safety
      ? {
          code: 3,
          message: 'The prompt was blocked by safety filters, see http://10.9.9.9 (simulated)',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'SAFETY', domain: 'googleapis.com' }],
        }
      : { code: extra.error ?? 13, message: 'Video generation failed at http://10.1.2.3/internal (simulated)' };
    body.steps = [{ type: 'model_output', error }];
  }
  return body;
}
