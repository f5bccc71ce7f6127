import { codeSummary, GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { VeoErrorBody } from './veo-protocol';
import { backpressureError, DEFAULT_RETRY_AFTER_SECONDS } from '../shared/error-mapping';

/** Google's canonical statuses, in the gateway's words (the provider's message is never passed on). */
export const VEO_STATUS_REASONS: Readonly<Record<string, string>> = {
  INVALID_ARGUMENT: 'invalid request',
  API_KEY_INVALID: 'the provider refused the API key',
  FAILED_PRECONDITION: 'the provider account cannot use the model (billing or region)',
  PERMISSION_DENIED: 'the provider refused the API key for this model',
  UNAUTHENTICATED: 'the provider refused the API key',
  NOT_FOUND: 'unknown model or operation',
  RESOURCE_EXHAUSTED: 'rate limit or quota exceeded',
  INTERNAL: 'provider internal error',
  UNAVAILABLE: 'the provider is unavailable',
  DEADLINE_EXCEEDED: 'the provider timed out',
  CANCELLED: 'the operation was cancelled',
};
/** google.rpc.Code numbers of a done operation's `error.code`. */
export const GOOGLE_RPC_CODES: Readonly<Record<number, string>> = {
  1: 'CANCELLED',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  7: 'PERMISSION_DENIED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  16: 'UNAUTHENTICATED',
};
const CHANNEL_STATUSES = new Set(['FAILED_PRECONDITION', 'PERMISSION_DENIED', 'UNAUTHENTICATED', 'NOT_FOUND']);

/**
 * Maps a Google error (HTTP status + `{error: {code, status, details}}`): an invalid key (a 400 whose
 * detail says API_KEY_INVALID), billing/region (FAILED_PRECONDITION), a denied or unknown model ->
 * the channel's fault (next channel, else 503); 429 -> back-pressure with the RetryInfo delay; any
 * other 4xx -> the caller's input (400, no charge); 5xx -> transient. Only the status is named.
 */
export function mapVeoError(httpStatus: number, body: VeoErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const error = body?.error && typeof body.error === 'object' ? body.error : undefined;
  const details = Array.isArray(error?.details) ? error.details : [];
  const keyInvalid = details.some((detail) => detail?.reason === 'API_KEY_INVALID');
  const status = keyInvalid ? 'API_KEY_INVALID' : providerCode(error?.status);
  const summary = (generic: string) => codeSummary(VEO_STATUS_REASONS, status, generic, status ? undefined : httpStatus);
  const info = { upstreamCode: status, httpStatus };
  if (
    keyInvalid ||
    httpStatus === 401 ||
    httpStatus === 403 ||
    (status !== undefined && CHANNEL_STATUSES.has(status)) ||
    httpStatus === 404
  ) {
    return new UpstreamError('channel', summary(GENERIC_REASON.channel), info);
  }
  if (httpStatus === 429) {
    const fallback = retryDelaySeconds(details) ?? DEFAULT_RETRY_AFTER_SECONDS;
    return backpressureError(summary(GENERIC_REASON.backpressure), info, retryAfterHeader, now, fallback);
  }
  if (httpStatus >= 400 && httpStatus < 500) return new UpstreamError('invalid_input', summary(GENERIC_REASON.invalid_input), info);
  return new UpstreamError('transient', summary(GENERIC_REASON.transient), info);
}

/** google.rpc.RetryInfo's `retryDelay` (`"30s"`), in whole seconds. */
function retryDelaySeconds(details: ReadonlyArray<{ retryDelay?: string }>): number | undefined {
  const delay = details
    .map((detail) => (typeof detail?.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay) : null))
    .find(Boolean);
  return delay ? Math.max(1, Math.ceil(Number(delay[1]))) : undefined;
}
