import { transportErrorMessage } from './provider-text';
import { UpstreamError } from './upstream-adapter';

/** Transport codes of a call that never reached the provider (no connection, no name, no trusted TLS): nothing was sent. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ERR_INVALID_URL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether a transport failure happened before the request could reach the provider. */
export function neverSent(error: unknown): boolean {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  return [code, cause?.code].some((value) => typeof value === 'string' && NEVER_SENT.has(value));
}

/**
 * A call's transport failure as a transient UpstreamError, in words (never the error's own message).
 * For the call that creates the provider's task (`createsTask`), anything but a request that never
 * left (a timeout, a reset connection, an answer cut off) may have been accepted.
 */
export function transportError(who: string, error: unknown, createsTask = false): UpstreamError {
  const mayHaveBeenAccepted = createsTask && !neverSent(error);
  return new UpstreamError('transient', transportErrorMessage(who, error), mayHaveBeenAccepted ? { mayHaveBeenAccepted } : {});
}
