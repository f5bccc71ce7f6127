import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { compact, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome, ProviderUsage } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { XaiVideoAnswer } from './xai-protocol';

/** A failure xAI reports of the content (its SDK's words, vercel/ai's fixture): moderation, not a generation fault. */
const MODERATION = /moderat|content.?polic|safety/i;
const PENDING = new Set(['pending', 'queued', 'processing', 'in_progress', 'running']);
/** `done` is documented; other gateways accept `completed` (and `succeeded`) for it too. */
const DONE = new Set(['done', 'completed', 'succeeded']);
const CANCELLED = new Set(['cancelled', 'canceled']);
/** What xAI's documented failure codes mean, in the gateway's words (its `message` is never passed on). */
const FAILURE_CODES: Readonly<Record<string, string>> = {
  internal_error: 'provider internal error',
  invalid_argument: 'the provider refused the input',
  deadline_exceeded: 'the provider ran out of time',
  resource_exhausted: 'the provider is out of capacity',
};

/**
 * An answer of `GET /v1/videos/{id}` (with its HTTP status) -> the gateway's poll outcome: a 202
 * (maybe with no body) or a pending status waits, with xAI's progress; `done` downloads `video.url`,
 * unless `video.respect_moderation` is false (moderation: the video is withheld); `failed` by its
 * error code (moderation when it says so); `expired` an upstream timeout; `completed` reads as `done`
 * and `cancelled` as a failure (other gateways read them so). `usage.cost_in_usd_ticks`
 * is the provider's usage, on every outcome that carries it. Another status is transient.
 */
export function mapXaiQuery(httpStatus: number, body: unknown, policy?: LinkPolicy): PollOutcome {
  const answer = (body && typeof body === 'object' ? body : {}) as XaiVideoAnswer;
  const raw = storedXaiAnswer(answer);
  const usage = xaiUsage(answer);
  const outcome = (fields: Omit<PollOutcome, 'raw'>): PollOutcome => ({ ...fields, raw, ...(usage ? { providerUsage: usage } : {}) });
  const status = typeof answer.status === 'string' ? answer.status.toLowerCase() : undefined;
  const url = answer.video?.url;
  if (httpStatus === 202 || (status !== undefined && PENDING.has(status))) {
    const progress =
      typeof answer.progress === 'number' && Number.isFinite(answer.progress)
        ? Math.max(0, Math.min(99, Math.round(answer.progress)))
        : undefined;
    return progress
      ? outcome({ state: 'running', progress })
      : outcome({ state: status === 'processing' || status === 'in_progress' ? 'running' : 'queued', progress: 0 });
  }
  if ((status !== undefined && DONE.has(status)) || (status === undefined && typeof url === 'string')) {
    if (answer.video?.respect_moderation === false)
      return outcome({ state: 'failed', failReason: failureReason(FAILURE.moderation, 'the video did not pass the provider moderation') });
    if (typeof url !== 'string' || !isShowableLink(url, policy))
      return outcome({ state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider gave no usable video link') });
    return outcome({ state: 'succeeded', progress: 100, videoUrl: url });
  }
  if (status === 'failed') return outcome({ state: 'failed', failReason: xaiFailReason(answer.error) });
  if (status === 'expired')
    return outcome({ state: 'failed', failReason: failureReason(FAILURE.timeout, 'the provider expired the request') });
  if (status !== undefined && CANCELLED.has(status))
    return outcome({
      state: 'failed',
      failReason: failureReason(FAILURE.generation, 'cancelled', 'the provider cancelled the request'),
      cancelledUpstream: true,
    });
  throw new UpstreamError(
    'transient',
    `unexpected status ${JSON.stringify(providerCode(answer.status) ?? null)} (HTTP ${httpStatus}) in the provider's answer`,
  );
}

/** `content moderation failed`, `generation failed: internal_error: provider internal error`. */
export function xaiFailReason(error: unknown): string {
  const { code: rawCode, message } = (error && typeof error === 'object' ? error : {}) as { code?: unknown; message?: unknown };
  const code = providerCode(rawCode);
  if ((code && MODERATION.test(code)) || (typeof message === 'string' && MODERATION.test(message)))
    return failureReason(FAILURE.moderation, code);
  return failureReason(FAILURE.generation, code, code ? FAILURE_CODES[code] : undefined);
}

/** `usage.cost_in_usd_ticks` (1 USD = 10^10 ticks): what the request costs the provider account. */
export function xaiUsage(answer: XaiVideoAnswer): ProviderUsage | undefined {
  return reportedUsage('usd_ticks', answer.usage?.cost_in_usd_ticks);
}

/** The documented fields of an answer, without the video link or any provider text. */
function storedXaiAnswer(answer: XaiVideoAnswer): unknown {
  const error = answer.error && typeof answer.error === 'object' ? (answer.error as { code?: unknown }) : undefined;
  return storedAnswer({
    status: keptText(answer.status, 32),
    progress: keptNumber(answer.progress),
    model: keptText(answer.model, 128),
    video: answer.video
      ? compact({
          duration: keptNumber(answer.video.duration),
          respect_moderation: typeof answer.video.respect_moderation === 'boolean' ? answer.video.respect_moderation : undefined,
        })
      : undefined,
    usage: answer.usage ? compact({ cost_in_usd_ticks: keptNumber(answer.usage.cost_in_usd_ticks) }) : undefined,
    error: error ? compact({ code: providerCode(error.code) }) : undefined,
  });
}
