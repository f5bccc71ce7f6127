import { parseRetryAfter } from '../../upstream/bearer-json-task-api';
import { GENERIC_REASON } from '../../upstream/provider-text';
import { UpstreamError, UpstreamErrorKind } from '../../upstream/upstream-adapter';
import type { MinimaxAnswer } from './minimax-protocol';
import { backpressureError, DEFAULT_RETRY_AFTER_SECONDS, errorByStatus } from '../shared/error-mapping';

/** MiniMax's documented `base_resp.status_code`s: how the gateway treats each, and its words for it (never the provider's `status_msg`). */
export const MINIMAX_CODES: Readonly<Record<number, [UpstreamErrorKind, string]>> = {
  1000: ['transient', 'unknown provider error'],
  1001: ['transient', 'provider request timeout'],
  1024: ['transient', 'provider internal error'],
  1033: ['transient', 'provider system error'],
  1002: ['backpressure', 'rate limit exceeded'],
  1039: ['backpressure', 'token limit exceeded'],
  1041: ['backpressure', 'connection limit exceeded'],
  2045: ['backpressure', 'request rate growth limit exceeded'],
  1004: ['channel', 'the provider refused the API key (or its region)'],
  2049: ['channel', 'the provider refused the API key'],
  1008: ['channel', 'the provider account has insufficient balance'],
  2056: ['channel', 'the provider account usage limit is exceeded'],
  2038: ['channel', 'the provider account needs real-name verification'],
  1026: ['moderation', 'the input was flagged as sensitive'],
  1027: ['moderation', 'the output was flagged as sensitive'],
  2013: ['invalid_input', 'invalid params'],
};

/** `base_resp.status_code` when it is a documented-looking integer (never its message). */
export function minimaxCode(answer: unknown): number | undefined {
  const code = (answer as MinimaxAnswer | null | undefined)?.base_resp?.status_code;
  const number = typeof code === 'string' && /^\d{1,9}$/.test(code) ? Number(code) : code;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

/** `1008: the provider account has insufficient balance`; an unknown code with the generic reason of its kind. */
export function minimaxReason(code: number, generic: string): string {
  return `${code}: ${MINIMAX_CODES[code]?.[1] ?? generic}`;
}

/**
 * A `base_resp` that is not 0 (MiniMax answers most errors with HTTP 200): its documented kind —
 * moderation ends the task failed and refunded, auth and balance are the channel's fault, 2013 the
 * caller's input; an unknown code is transient. Null when the answer says success.
 */
export function minimaxAnswerError(answer: unknown, retryAfterSeconds?: number): UpstreamError | null {
  const code = minimaxCode(answer);
  if (code === 0) return null;
  if (code === undefined) return new UpstreamError('transient', 'the provider answered without a base_resp status');
  const kind = MINIMAX_CODES[code]?.[0] ?? 'transient';
  const reason =
    kind === 'moderation'
      ? `content moderation failed: ${minimaxReason(code, GENERIC_REASON.moderation)}`
      : minimaxReason(code, GENERIC_REASON[kind]);
  return new UpstreamError(kind, reason, {
    upstreamCode: code,
    ...(kind === 'backpressure' ? { retryAfterSeconds: retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS } : {}),
  });
}

/**
 * A non-2xx answer: its `base_resp` code when it has a documented one; else by status (401/403 and
 * a wrong path -> channel, 429 -> back-pressure, other 4xx -> the caller's input, 5xx -> transient).
 */
export function mapMinimaxError(status: number, body: MinimaxAnswer | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const retryAfter = parseRetryAfter(retryAfterHeader, now);
  const code = minimaxCode(body);
  if (code !== undefined && MINIMAX_CODES[code]) return withStatus(minimaxAnswerError(body, retryAfter)!, status);
  const summary = (generic: string) => (code ? minimaxReason(code, generic) : `${generic} (HTTP ${status})`);
  const details = { upstreamCode: code, httpStatus: status };
  if (status === 429) return backpressureError(summary(GENERIC_REASON.backpressure), details, retryAfterHeader, now);
  if (status === 401 || status === 403) return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  return errorByStatus(status, summary, details);
}

function withStatus(error: UpstreamError, httpStatus: number): UpstreamError {
  return new UpstreamError(error.kind, error.message, { ...error.details, httpStatus });
}
