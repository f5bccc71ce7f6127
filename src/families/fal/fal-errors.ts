import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { describeCode, GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
import type { FalErrorBody } from './fal-protocol';
import { backpressureError } from '../shared/error-mapping';

/** The 422 issue type of fal's content checkers (docs.fal.ai/errors#content_policy_violation). */
export const FAL_CONTENT_POLICY = 'content_policy_violation';
/** fal's answer to a result asked for too early (vercel/ai matches the body, not the status). */
const STILL_RUNNING = /still in progress/i;
/** What the gateway's mapping calls a result that is not ready (never a provider code). */
export const FAL_RESULT_NOT_READY = 'result_not_ready';
/** A locked account: fal's 403 says `User is locked. Reason: Exhausted balance...` (fal-ai/fal issues). */
const LOCKED = /locked|balance/i;

/** fal's request error types (docs.fal.ai request errors), in the gateway's words; its `detail` is never passed on. */
export const FAL_REQUEST_ERRORS: Readonly<Record<string, string>> = {
  request_timeout: 'the request timed out at the provider',
  startup_timeout: "the provider's runner did not start in time",
  runner_scheduling_failure: 'the provider could not schedule a runner',
  runner_connection_timeout: 'the provider lost its runner',
  runner_disconnected: 'the provider lost its runner',
  runner_connection_refused: 'the provider lost its runner',
  runner_connection_error: 'the provider lost its runner',
  runner_incomplete_response: "the provider's runner answered incompletely",
  runner_server_error: "the provider's runner failed",
  client_disconnected: 'the request was cancelled',
  client_cancelled: 'the request was cancelled',
  bad_request: 'the provider refused the request',
  internal_error: 'provider internal error',
};
const CANCELLED_TYPES = new Set(['client_cancelled', 'client_disconnected']);

/**
 * Maps a fal HTTP error: 401/403 (a bad key, a locked account: fal's 403 for an empty balance, never
 * 402) and 404 (no such endpoint on this host) are the channel's fault; 422 with a
 * `content_policy_violation` issue is moderation, another 422 or 4xx the caller's input (the first
 * issue's type and field); 429 back-pressure; 5xx transient. A result asked for too early is
 * transient with the code `result_not_ready`. fal's `detail` text is never passed on.
 */
export function mapFalError(status: number, body: FalErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const errorType = providerCode(body?.error_type);
  const details = { httpStatus: status, ...(errorType ? { upstreamCode: errorType } : {}) };
  const detail = body?.detail;
  if (status === 401) return new UpstreamError('channel', 'the provider refused the API key (HTTP 401)', details);
  if (status === 403) {
    return typeof detail === 'string' && LOCKED.test(detail)
      ? new UpstreamError('channel', 'the provider account is locked (exhausted balance or an admin lock)', {
          ...details,
          upstreamCode: 'user_locked',
        })
      : new UpstreamError('channel', 'the provider refused the API key (HTTP 403)', details);
  }
  if (status === 429) {
    return backpressureError(`${GENERIC_REASON.backpressure} (HTTP 429)`, details, retryAfterHeader, now);
  }
  if (status === 400 && typeof detail === 'string' && STILL_RUNNING.test(detail))
    return new UpstreamError('transient', 'the result is not ready yet', { ...details, upstreamCode: FAL_RESULT_NOT_READY });
  if (status === 404) return new UpstreamError('channel', 'the provider does not know this endpoint or request (HTTP 404)', details);
  const issues = Array.isArray(detail) ? (detail as Array<Record<string, unknown>>) : [];
  if (issues.some((issue) => issue?.type === FAL_CONTENT_POLICY))
    return new UpstreamError('moderation', `${FAILURE.moderation}: ${FAL_CONTENT_POLICY}`, {
      ...details,
      upstreamCode: FAL_CONTENT_POLICY,
    });
  if (status >= 400 && status < 499)
    return new UpstreamError('invalid_input', issueSummary(issues[0]) ?? GENERIC_REASON.invalid_input, details);
  const described = describeCode(FAL_REQUEST_ERRORS, errorType);
  return new UpstreamError('transient', described ? `${errorType}: ${described}` : `${GENERIC_REASON.transient} (HTTP ${status})`, details);
}

/**
 * What a COMPLETED request's failed result means for its task (fal has no FAILED status: a failure
 * shows on the result call, TanStack/ai #396): moderation, the input refused, or a request error
 * of its runner; null for an error that says nothing of the task (a key refused, a 5xx of the
 * result call itself without a request error type), which the sync treats as it is.
 */
export function falFailedResult(error: UpstreamError, statusErrorType: string | undefined, raw: unknown): PollOutcome | null {
  if (error.kind === 'moderation') return { state: 'failed', failReason: failureReason(FAILURE.moderation, FAL_CONTENT_POLICY), raw };
  if (error.kind === 'invalid_input') return { state: 'failed', failReason: failureReason(FAILURE.generation, error.message), raw };
  if (error.kind !== 'transient' || error.details.upstreamCode === FAL_RESULT_NOT_READY) return null;
  const errorType = typeof error.details.upstreamCode === 'string' ? error.details.upstreamCode : statusErrorType;
  const described = describeCode(FAL_REQUEST_ERRORS, errorType);
  // A request error fal stored (a type it documents, on the result or its status): the request ended so.
  if (!described || (error.details.httpStatus !== undefined && error.details.httpStatus < 499)) return null;
  return {
    state: 'failed',
    failReason: failureReason(FAILURE.generation, errorType, described),
    raw,
    ...(CANCELLED_TYPES.has(errorType!) ? { cancelledUpstream: true } : {}),
  };
}

/** `type_error.integer: the provider refused the input (param: duration)`, when the issue looks like fal's (pydantic's). */
function issueSummary(issue: Record<string, unknown> | undefined): string | undefined {
  if (!issue || typeof issue !== 'object') return undefined;
  const type = providerCode(issue.type);
  const loc = Array.isArray(issue.loc) ? issue.loc : [];
  const field = providerCode(loc[loc.length - 1]);
  if (!type && !field) return undefined;
  return `${type ?? 'invalid_input'}: ${GENERIC_REASON.invalid_input}${field ? ` (param: ${field})` : ''}`;
}
