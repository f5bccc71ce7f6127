import { GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { ReplicateErrorBody } from './replicate-protocol';
import { backpressureError } from '../shared/error-mapping';

/** 422 "Invalid version or not permitted": the route's model or version is unknown, or the key may not run it (replicate-python #47). */
const NOT_PERMITTED = /invalid version|not permitted/i;

/**
 * Maps a Replicate HTTP error (`{title, detail, status}`): 401/403 a refused token, 402 no credit,
 * 422 "Invalid version or not permitted" and 404 a model or version this key cannot run: the
 * channel's fault (next channel, else 503, nothing charged); another 422 or 4xx the caller's input
 * (naming the first invalid field); 429 back-pressure with Retry-After; 5xx transient. Replicate's
 * `detail` text is never passed on.
 */
export function mapReplicateError(
  status: number,
  body: ReplicateErrorBody | undefined,
  retryAfterHeader: unknown,
  now: number,
): UpstreamError {
  const details = { httpStatus: status };
  const title = typeof body?.title === 'string' ? body.title : '';
  if (status === 401 || status === 403) return new UpstreamError('channel', `the provider refused the API token (HTTP ${status})`, details);
  if (status === 402)
    return new UpstreamError('channel', 'the provider account has insufficient credit', {
      ...details,
      upstreamCode: 'insufficient_credit',
    });
  if (status === 429) {
    return backpressureError(`${GENERIC_REASON.backpressure} (HTTP 429)`, details, retryAfterHeader, now);
  }
  if (status === 404 || (status === 422 && NOT_PERMITTED.test(title)))
    return new UpstreamError('channel', `the provider does not let this token run the model or version (HTTP ${status})`, details);
  if (status >= 400 && status < 500) return new UpstreamError('invalid_input', fieldSummary(body) ?? GENERIC_REASON.invalid_input, details);
  return new UpstreamError('transient', `${GENERIC_REASON.transient} (HTTP ${status})`, details);
}

/** `enum: the provider refused the input (param: duration)`, from the first of `invalid_fields` when it looks like one. */
function fieldSummary(body: ReplicateErrorBody | undefined): string | undefined {
  const first = Array.isArray(body?.invalid_fields) ? body.invalid_fields[0] : undefined;
  const field = providerCode(first?.field);
  const type = providerCode(first?.type);
  if (!field && !type) return undefined;
  return `${type ?? 'invalid_input'}: ${GENERIC_REASON.invalid_input}${field ? ` (param: ${field})` : ''}`;
}
