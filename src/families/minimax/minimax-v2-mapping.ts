import { isShowableLink, type LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { type PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
import { backpressureError, errorByStatus } from '../shared/error-mapping';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import { minimaxFailReason } from './minimax-query-mapping';
import type { MinimaxV2ErrorEnvelope, MinimaxV2QueryAnswer, MinimaxV2Task } from './minimax-v2-protocol';

/**
 * v2's error `type`s (UNCONFIRMED beyond `authentication_error`: docs/families.md, MiniMax, says what
 * was decided): moderation by its words (`sensitive`, `moderation`), the account's by theirs
 * (`auth`, `permission`, `balance`, `quota`), throttling by `rate_limit`; else the HTTP status decides.
 */
const MODERATION_TYPE = /sensitiv|moderat/i;
const CHANNEL_TYPE = /auth|permission|balance|quota|billing|arrear/i;
const THROTTLE_TYPE = /rate_?limit|too_many/i;
/** A failed task's `error.code` that speaks of moderation (v1's 1026/1027 are read as v1's table does). */
const MODERATION_CODE = /sensitiv|moderat|risk|violat/i;
/** The usage v2 reports, whole numbers (new-api bills `total_seconds`). */
const USAGE_KEYS = ['total_seconds', 'input_seconds', 'output_seconds', 'input_image_count', 'input_audio_seconds'];

/** The envelope's `type` (a code-shaped string only) and its HTTP status (`http_code`, else the response's). */
function envelopeOf(body: unknown, status: number): { type?: string; httpStatus: number } {
  const envelope = (body ?? {}) as MinimaxV2ErrorEnvelope;
  const type = providerCode(envelope.error?.type) ?? providerCode(envelope.type === 'error' ? undefined : envelope.type);
  const declared = Number(envelope.error?.http_code);
  return { type, httpStatus: Number.isInteger(declared) && declared >= 400 && declared < 600 ? declared : status };
}

/** True when an answer is v2's error envelope (`{"type": "error", "error": {...}}`). */
export function isMinimaxV2Error(body: unknown): boolean {
  const envelope = body as MinimaxV2ErrorEnvelope | null;
  return !!envelope && typeof envelope === 'object' && (envelope.type === 'error' || typeof envelope.error?.type === 'string');
}

/**
 * v2's error envelope -> the gateway's kind: moderation ends the task failed (refunded), the
 * account's errors and 401/403 are the channel's, throttling and 429 back-pressure, another 4xx the
 * caller's input (named by its type only), 5xx transient. The provider's message is never kept.
 */
export function mapMinimaxV2Error(status: number, body: unknown, retryAfterHeader: unknown, now: number): UpstreamError {
  const { type, httpStatus } = envelopeOf(body, status);
  const summary = (generic: string) => (type ? `${type}: ${generic}` : `${generic} (HTTP ${httpStatus})`);
  const details = { httpStatus, ...(type ? { upstreamCode: type } : {}) };
  if (type && MODERATION_TYPE.test(type))
    return new UpstreamError('moderation', `content moderation failed: ${summary('the input was flagged as sensitive')}`, details);
  if (httpStatus === 401 || httpStatus === 403 || httpStatus === 402 || (type && CHANNEL_TYPE.test(type)))
    return new UpstreamError('channel', summary('the provider refused the channel'), details);
  if (httpStatus === 429 || (type && THROTTLE_TYPE.test(type)))
    return backpressureError(summary('the provider is throttling requests'), details, retryAfterHeader, now);
  return errorByStatus(httpStatus, (generic) => summary(generic), details);
}

/**
 * A v2 query (`{task: {...}}`) -> the gateway's poll outcome: `queued`, `running`, `succeeded` (the
 * inline `content.url`), `failed` (moderation by its code), and `cancelled` and `expired` as ends,
 * refunded, never "still running". `usage.total_seconds` is the provider's usage. An error envelope is
 * its error; any other status transient.
 */
export function mapMinimaxV2Query(body: unknown, policy?: LinkPolicy): PollOutcome {
  if (isMinimaxV2Error(body)) throw mapMinimaxV2Error(200, body, undefined, Date.now());
  const task: MinimaxV2Task = (body as MinimaxV2QueryAnswer | null)?.task ?? {};
  const usage = reportedUsage('video_seconds', task.usage?.total_seconds);
  const outcome = { ...v2State(task, policy), raw: storedV2Task(task) };
  return usage ? { ...outcome, providerUsage: usage } : outcome;
}

/** A v2 task's status as the gateway's state (without the fields kept). */
function v2State(task: MinimaxV2Task, policy?: LinkPolicy): Omit<PollOutcome, 'raw'> {
  if (task.status === 'queued') return { state: 'queued', progress: 0 };
  if (task.status === 'running') return { state: 'running' };
  if (task.status === 'failed') return { state: 'failed', failReason: minimaxV2FailReason(task.error?.code) };
  if (task.status === 'cancelled')
    return {
      state: 'failed',
      failReason: failureReason(FAILURE.generation, 'cancelled', 'the provider cancelled the task'),
      cancelledUpstream: true,
    };
  if (task.status === 'expired')
    return { state: 'failed', failReason: failureReason(FAILURE.generation, 'expired', 'the provider let the task expire') };
  if (task.status !== 'succeeded')
    throw new UpstreamError('transient', `unexpected status ${JSON.stringify(providerCode(task.status) ?? null)} in the provider's answer`);
  const url = task.content?.url;
  if (typeof url !== 'string' || !isShowableLink(url, policy))
    return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider gave no usable video link') };
  return { state: 'succeeded', progress: 100, videoUrl: url };
}

/** A failed task's code: v1's numbers by v1's table (1026/1027 moderation), a moderation word, else generation failed with the code. */
export function minimaxV2FailReason(code: unknown): string {
  const text = typeof code === 'number' ? String(code) : code;
  if (typeof text === 'string' && /^\d{1,9}$/.test(text)) return minimaxFailReason(Number(text));
  const named = providerCode(text);
  if (named && MODERATION_CODE.test(named)) return failureReason(FAILURE.moderation, named);
  return failureReason(FAILURE.generation, named);
}

/** The documented fields of a v2 task: no URL, no message; a few KB at most. */
function storedV2Task(task: MinimaxV2Task): unknown {
  const usage = Object.fromEntries(
    USAGE_KEYS.map((key) => [key, keptNumber(task.usage?.[key])]).filter(([, value]) => value !== undefined),
  );
  return storedAnswer({
    task: {
      id: keptText(task.id, 64),
      model: keptText(task.model, 64),
      status: keptText(task.status, 32),
      created_at: keptNumber(task.created_at),
      updated_at: keptNumber(task.updated_at),
      resolution: keptText(task.resolution, 16),
      duration: keptNumber(task.duration),
      ratio: keptText(task.ratio, 16),
      ...(Object.keys(usage).length > 0 ? { usage } : {}),
      ...(task.error ? { error: { code: keptNumber(task.error.code) ?? providerCode(task.error.code) } } : {}),
    },
  });
}
