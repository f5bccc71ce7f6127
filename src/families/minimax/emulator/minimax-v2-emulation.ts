import { randomUUID } from 'node:crypto';
import type { EmulatorReply } from '../../simulator-shared/emulator-http';
import { MINIMAX_V2_MAX_PROMPT, MINIMAX_V2_RATIOS } from '../minimax-models';

/**
 * What MiniMax's v2 video API checks of a create (upstream-protocols-wires.md, 3.3 and 3.10), as
 * pure functions the family's emulator answers with: its models, the `content` rules, the envelope.
 */

/** The v2 models and their lengths: MiniMax-H3 takes 4 to 15 s (the notes accept 4; the gateway sends 5 at least). */
export const V2_SERVED: Readonly<Record<string, { min: number; max: number; resolutions: readonly string[] }>> = {
  'MiniMax-H3': { min: 4, max: 15, resolutions: ['2K', '768P'] },
};

/** v2's error envelope with its HTTP status. */
export function v2Error(status: number, type: string, message: string): EmulatorReply {
  return { status, json: { type: 'error', error: { type, message, http_code: String(status) }, request_id: randomUUID() } };
}

/** A `base_resp` code a test queued, as v2 answers the same refusal (types UNCONFIRMED: the emulator's own). */
export function v2ErrorOfCode(code: number): EmulatorReply {
  const text = 'failure at http://10.0.0.1/internal, key sk-leaked123456';
  if (code === 1026) return v2Error(400, 'input_sensitive_error', text);
  if (code === 1004 || code === 2049) return v2Error(401, 'authentication_error', text);
  if (code === 1008) return v2Error(402, 'insufficient_balance_error', text);
  if (code === 1002) return v2Error(429, 'rate_limit_error', text);
  if (code === 2013) return v2Error(400, 'invalid_request_error', text);
  return v2Error(500, 'api_error', text);
}

/** A `content` item as sent: its media under the key of its type. */
type Item = { type?: unknown; text?: unknown; role?: unknown } & Partial<
  Record<'image_url' | 'video_url' | 'audio_url', { url?: unknown }>
>;

/**
 * Why a create body is refused (a 400 `invalid_request_error`), or null: its model, exactly one
 * non-empty text of at most 7000 characters, media by type and role, the reference limits, frames and
 * references never mixed, reference audio only beside an image or a video, a whole duration in range, a
 * resolution of the model's, and text-to-video's ratio (required, never `adaptive`).
 */
export function refusedV2Create(body: Record<string, unknown>): string | null {
  const { model, content, duration, resolution, ratio } = body;
  if (typeof model !== 'string' || !Object.hasOwn(V2_SERVED, model)) return 'invalid model';
  const served = V2_SERVED[model];
  if (!Array.isArray(content)) return 'content is required';
  const items = content as Item[];
  const texts = items.filter((item) => item?.type === 'text');
  if (texts.length !== 1 || typeof texts[0].text !== 'string' || texts[0].text.trim() === '') return 'content needs exactly one text item';
  if (texts[0].text.length > MINIMAX_V2_MAX_PROMPT) return 'text is too long';
  const roles = { first_frame: 0, last_frame: 0, reference_image: 0, reference_video: 0, base_video: 0, reference_audio: 0 };
  for (const item of items) {
    if (item?.type === 'text') continue;
    const media =
      item?.type === 'image_url'
        ? item.image_url
        : item?.type === 'video_url'
          ? item.video_url
          : item?.type === 'audio_url'
            ? item.audio_url
            : null;
    if (!media || typeof media.url !== 'string' || media.url === '') return 'invalid content item';
    const role = item.type === 'image_url' ? (item.role ?? 'first_frame') : item.role;
    const allowed = {
      image_url: ['first_frame', 'last_frame', 'reference_image'],
      video_url: ['reference_video', 'base_video'],
      audio_url: ['reference_audio'],
    }[item.type as 'image_url' | 'video_url' | 'audio_url'];
    if (!allowed.includes(role as string)) return `invalid role for ${String(item.type)}`;
    roles[role as keyof typeof roles]++;
  }
  if (roles.first_frame > 1 || roles.last_frame > 1) return 'one first_frame and one last_frame at most';
  if (roles.last_frame > 0 && roles.first_frame === 0) return 'last_frame needs a first_frame';
  if (roles.reference_image > 9 || roles.reference_video > 3 || roles.reference_audio > 3) return 'too many references';
  const frames = roles.first_frame + roles.last_frame > 0;
  if (frames && roles.reference_image + roles.reference_video + roles.reference_audio > 0) return 'frames and references cannot be mixed';
  if (roles.reference_audio > 0 && roles.reference_image + roles.reference_video === 0)
    return 'reference_audio needs a reference image or video';
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < served.min || duration > served.max)
    return 'invalid duration';
  if (typeof resolution !== 'string' || !served.resolutions.includes(resolution)) return 'invalid resolution';
  const textOnly = items.length === 1;
  if (textOnly && (typeof ratio !== 'string' || !MINIMAX_V2_RATIOS.includes(ratio)))
    return 'ratio is required for text-to-video (not adaptive)';
  if (ratio !== undefined && ratio !== 'adaptive' && !MINIMAX_V2_RATIOS.includes(ratio as string)) return 'invalid ratio';
  return null;
}

/** The prompt of a create body (its one text item). */
export function v2PromptOf(body: Record<string, unknown>): string {
  const text = (body.content as Item[]).find((item) => item?.type === 'text')?.text;
  return typeof text === 'string' ? text : '';
}

/** How many images a create body carries (v2's usage reports them). */
export function v2ImageCount(body: Record<string, unknown>): number {
  return (body.content as Item[]).filter((item) => item?.type === 'image_url').length;
}
