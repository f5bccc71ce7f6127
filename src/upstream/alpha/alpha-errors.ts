import { UpstreamError, UpstreamErrorKind } from '../upstream-adapter';

/** ErrCodes that mean the caller's input was refused (empty/invalid parameter, too long, bad image). */
const INVALID_INPUT = new Set([400011, 400013, 400017, 400018, 400019, 400032, 500030, 500031, 500032, 500033]);
/** Content moderation at submit: the protocol's treatment is "task fails, refund". */
const MODERATION = new Set([500054, 500063]);
const BACKPRESSURE = new Set([500044]);
const CHANNEL = new Set([500090]);

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

/** An UpstreamError for a refused call; the message carries the provider's text, never a URL or key. */
export function alphaError(code: number | undefined, message: string | undefined, httpStatus: number | undefined, retryAfterSeconds?: number): UpstreamError {
  const kind = code ? kindForErrCode(code, httpStatus) : kindForHttpStatus(httpStatus ?? 502);
  const text = code && MODERATION.has(code) ? 'content moderation failed' : message?.trim() || (httpStatus ? `HTTP ${httpStatus}` : 'unknown error');
  return new UpstreamError(kind, code ? `ErrCode ${code}: ${text}` : text, { upstreamCode: code, httpStatus, retryAfterSeconds });
}

/** A transport failure in words, without the URL (it may carry signatures or keys). */
export function describeTransportError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message ?? '')) return 'timeout';
  return code ?? 'network error';
}
