import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { compact, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { INLINE_VIDEO_URL, type InlineVideo, type PollOutcome, type ProviderUsage, UpstreamError } from '../../upstream/upstream-adapter';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import { GOOGLE_RPC_CODES, VEO_STATUS_REASONS } from './veo-errors';
import type { OmniContent, OmniInteraction, OmniStatus } from './omni-protocol';

/** The moderation outcome named in a failed task's reason. */
export const OMNI_SAFETY_BLOCKED = 'safety';
/** What names a safety block: an ErrorInfo `reason` of a step's error, or an error-type URI of `errors[]`. */
const SAFETY = /safety|blocked|prohibited|rai_?filter|responsible/i;

/** Statuses that end an interaction without a video: each an end, refunded, never "still running". */
const ENDED: Readonly<Record<string, string>> = {
  incomplete: 'the provider stopped the interaction incomplete',
  budget_exceeded: 'the provider stopped the interaction over its budget',
  requires_action: 'the provider asked for an action the gateway does not take',
};

/**
 * An interaction (GET `/v1beta/interactions/{id}`) -> the gateway's poll outcome: `queued`, `in_progress`
 * in flight; `completed` the video of its `model_output` step (a Files URI, downloaded with the key; or its
 * bytes inline, base64 `data`: INLINE_VIDEO_URL, the bytes read again by whoever keeps the video);
 * `failed` a safety block (moderation) or the google.rpc code of its error; `cancelled` the end of a
 * cancel; `incomplete`, `budget_exceeded`, `requires_action` and `expired` ends too. Any other status is
 * transient (asked again). `usage.total_output_tokens` (what Google bills a video on) is the provider's usage.
 */
export function mapOmniInteraction(body: unknown, policy?: LinkPolicy): PollOutcome {
  const interaction = (body && typeof body === 'object' ? body : {}) as OmniInteraction;
  const usage = omniUsage(interaction);
  const outcome = (fields: Omit<PollOutcome, 'raw'>): PollOutcome => ({
    ...fields,
    raw: storedOmniInteraction(interaction),
    ...(usage ? { providerUsage: usage } : {}),
  });
  const failed = (...details: string[]) => outcome({ state: 'failed', failReason: failureReason(FAILURE.generation, ...details) });
  const inFlight = interaction.status === 'queued' ? 'queued' : interaction.status === 'in_progress' ? 'running' : null;
  if (inFlight) return outcome({ state: inFlight, ...(inFlight === 'queued' ? { progress: 0 } : {}) });
  switch (interaction.status) {
    case 'completed': {
      const video = videoOf(interaction);
      if (typeof video?.uri === 'string' && video.uri !== '') {
        if (!isShowableLink(video.uri, policy)) return failed('the video cannot be downloaded from this channel');
        return outcome({ state: 'succeeded', progress: 100, videoUrl: video.uri });
      }
      if (typeof video?.data === 'string' && video.data !== '')
        return outcome({ state: 'succeeded', progress: 100, videoUrl: INLINE_VIDEO_URL });
      return failed('the provider returned no video');
    }
    case 'failed': {
      if (safetyBlocked(interaction))
        return outcome({ state: 'failed', failReason: failureReason(FAILURE.moderation, OMNI_SAFETY_BLOCKED) });
      const status = rpcStatusOf(errorOf(interaction));
      return failed(...(status ? [status, VEO_STATUS_REASONS[status]] : []));
    }
    case 'cancelled':
      return outcome({ ...failed('the task was cancelled upstream'), cancelledUpstream: true });
    case 'expired':
      return outcome({ state: 'failed', failReason: failureReason(FAILURE.timeout, 'the provider expired the interaction') });
    default:
      if (interaction.status !== undefined && Object.hasOwn(ENDED, interaction.status)) return failed(ENDED[interaction.status]);
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(interaction.status) ?? null)} in the provider's answer`,
      );
  }
}

/** The video block of the last `model_output` step (older previews answered `outputs[]`, not read). */
function videoOf(interaction: OmniInteraction): OmniContent | undefined {
  const outputs = (Array.isArray(interaction.steps) ? interaction.steps : []).filter((step) => step?.type === 'model_output');
  for (const step of outputs.reverse()) {
    const video = (Array.isArray(step.content) ? step.content : []).find((block) => block?.type === 'video');
    if (video) return video;
  }
  return undefined;
}

/**
 * The video a completed interaction carries inline (base64 `data`), decoded once; null when it carries none
 * (not completed, a Files URI, or no longer there).
 */
export function omniInlineVideo(body: unknown): InlineVideo | null {
  const interaction = (body && typeof body === 'object' ? body : {}) as OmniInteraction;
  const video = interaction.status === 'completed' ? videoOf(interaction) : undefined;
  if (typeof video?.data !== 'string' || video.data === '') return null;
  return { bytes: Buffer.from(video.data, 'base64'), ...(typeof video.mime_type === 'string' ? { mimeType: video.mime_type } : {}) };
}

const errorOf = (interaction: OmniInteraction): OmniStatus | undefined =>
  (Array.isArray(interaction.steps) ? interaction.steps : [])
    .map((step) => step?.error)
    .find((error) => error && typeof error === 'object');

function safetyBlocked(interaction: OmniInteraction): boolean {
  const reasons = (errorOf(interaction)?.details ?? []).map((detail) => detail?.reason);
  const types = (Array.isArray(interaction.errors) ? interaction.errors : []).map((error) => error?.code);
  return [...reasons, ...types].some((text) => typeof text === 'string' && SAFETY.test(text));
}

const rpcStatusOf = (error: OmniStatus | undefined): string | undefined =>
  typeof error?.code === 'number' ? GOOGLE_RPC_CODES[error.code] : undefined;

/** `usage.total_output_tokens` (Google bills a video's output tokens), else `total_tokens`. */
export function omniUsage(interaction: OmniInteraction): ProviderUsage | undefined {
  const usage = interaction.usage && typeof interaction.usage === 'object' ? interaction.usage : undefined;
  return reportedUsage('tokens', usage?.total_output_tokens) ?? reportedUsage('tokens', usage?.total_tokens);
}

/** What a task keeps of an interaction: its id, model, status and error codes; no provider text, no URI, no video data. */
function storedOmniInteraction(interaction: OmniInteraction): unknown {
  const error = errorOf(interaction);
  return storedAnswer({
    id: keptText(interaction.id, 200),
    model: keptText(interaction.model, 128),
    status: keptText(interaction.status, 32),
    error: error ? compact({ code: keptNumber(error.code) }) : undefined,
    videos: Array.isArray(interaction.steps) ? (videoOf(interaction) ? 1 : 0) : undefined,
  });
}
