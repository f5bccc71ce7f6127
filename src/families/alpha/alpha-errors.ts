import { GENERIC_REASON } from '../../upstream/provider-text';
import { UpstreamError, UpstreamErrorKind } from '../../upstream/upstream-adapter';

/** ErrCodes that mean the caller's input was refused (empty/invalid parameter, too long, bad image). */
const INVALID_INPUT = new Set([400011, 400013, 400017, 400018, 400019, 400032, 500030, 500031, 500032, 500033]);
/** Content moderation at submit: the protocol's treatment is "task fails, refund". */
const MODERATION = new Set([500054, 500063]);
const BACKPRESSURE = new Set([500044]);
const CHANNEL = new Set([500090]);

/** The documented ErrCodes in the gateway's words (the provider's ErrMsg is never passed on). */
export const ALPHA_ERROR_REASONS: Readonly<Record<number, string>> = {
  400011: 'invalid parameter',
  400013: 'invalid parameter',
  400017: 'invalid parameter',
  400018: 'prompt too long',
  400019: 'negative prompt too long',
  400032: 'invalid image id',
  500030: 'image too large',
  500031: 'image format error',
  500032: 'image size error',
  500033: 'image size error',
  500044: 'concurrent generation limit reached',
  500054: 'content moderation failed',
  500063: 'content moderation failed',
  500069: 'system busy',
  500090: 'insufficient balance on the provider account',
  99999: 'unknown error',
};

/** How the gateway treats a family A ErrCode (see the protocol document's error table). */
export function kindForErrCode(code: number, httpStatus?: number): UpstreamErrorKind {
  if (MODERATION.has(code)) return 'moderation';
  if (INVALID_INPUT.has(code)) return 'invalid_input';
  if (BACKPRESSURE.has(code)) return 'backpressure';
  if (CHANNEL.has(code)) return 'channel';
  // Unknown codes: an HTTP error status says more; else 400xxx are parameter errors and the rest (500069 busy, 99999) are retried.
  if (httpStatus !== undefined && httpStatus >= 400) return kindForHttpStatus(httpStatus);
  return code >= 400000 && code < 500000 ? 'invalid_input' : 'transient';
}

/** For HTTP errors that carry no ErrCode. */
export function kindForHttpStatus(status: number): UpstreamErrorKind {
  if (status === 429) return 'backpressure';
  if (status === 401 || status === 403 || status === 404 || status === 405) return 'channel';
  if (status >= 400 && status < 500) return 'invalid_input';
  return 'transient';
}

/**
 * An UpstreamError for a refused call: the ErrCode and its documented reason (a generic one for
 * other codes), or the HTTP status. `_message` (the provider's ErrMsg) is deliberately unused: it
 * may carry internal addresses or the key.
 */
export function alphaError(
  code: number | undefined,
  _message: string | undefined,
  httpStatus: number | undefined,
  retryAfterSeconds?: number,
): UpstreamError {
  const errCode = code !== undefined && Number.isSafeInteger(code) && code !== 0 ? code : undefined;
  const kind = errCode ? kindForErrCode(errCode, httpStatus) : kindForHttpStatus(httpStatus ?? 502);
  const reason = errCode ? (ALPHA_ERROR_REASONS[errCode] ?? GENERIC_REASON[kind]) : httpStatus ? `HTTP ${httpStatus}` : 'unknown error';
  return new UpstreamError(kind, errCode ? `ErrCode ${errCode}: ${reason}` : reason, {
    upstreamCode: errCode,
    httpStatus,
    retryAfterSeconds,
  });
}
