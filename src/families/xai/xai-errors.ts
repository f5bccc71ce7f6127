import { GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { XaiErrorBody } from './xai-protocol';
import { backpressureError } from '../shared/error-mapping';

/** xAI answers a bad key with a 400 that says so (its docs, and many client issues). */
const BAD_KEY = /incorrect api key|invalid api key|api key (?:is )?(?:missing|invalid|revoked|disabled|blocked)/i;
/** Out of credits or over the spending limit is a 429 that says so, not a 402. */
const NO_CREDITS = /used all available credits|spending limit|purchase more credits|insufficient credits/i;
/** What a refusal of the content reads like (UNCONFIRMED at submit: xAI documents no such code). */
const MODERATION = /content polic|moderat|safety (?:check|filter|system)/i;

/**
 * Maps an xAI HTTP error by its status and what its text says (read, never passed on): a bad key
 * (400/401/403) and an empty balance (429) are the channel's fault (next channel, else 503); other
 * 429s back-pressure; a content refusal moderation; 404/405 the channel (its base_url does not lead
 * to xAI, or the request is unknown there); other 4xx the caller's input; 5xx transient.
 */
export function mapXaiError(status: number, body: XaiErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const text = xaiErrorText(body);
  const code = xaiErrorCode(body);
  const details = { httpStatus: status, ...(code ? { upstreamCode: code } : {}) };
  if (NO_CREDITS.test(text))
    return new UpstreamError('channel', 'the provider account has used its credits or reached its spending limit', {
      ...details,
      upstreamCode: 'no_credits',
    });
  if (status === 401 || status === 403 || BAD_KEY.test(text))
    return new UpstreamError('channel', `the provider refused the API key (HTTP ${status})`, {
      ...details,
      upstreamCode: 'invalid_api_key',
    });
  if (status === 429) {
    return backpressureError(`${GENERIC_REASON.backpressure} (HTTP 429)`, details, retryAfterHeader, now);
  }
  if (status >= 400 && status < 500 && MODERATION.test(text))
    return new UpstreamError('moderation', `content moderation failed${code ? `: ${code}` : ''}`, details);
  // An answer from xAI itself (it has its error text) about a request it does not know; a bare 404 is a base_url leading elsewhere.
  if (status === 404)
    return new UpstreamError('channel', `${GENERIC_REASON.channel} (HTTP 404)`, { ...details, upstreamCode: text ? 'not_found' : code });
  if (status === 405) return new UpstreamError('channel', `${GENERIC_REASON.channel} (HTTP 405)`, details);
  if (status >= 400 && status < 500)
    return new UpstreamError('invalid_input', `${code ? `${code}: ` : ''}${GENERIC_REASON.invalid_input} (HTTP ${status})`, details);
  return new UpstreamError('transient', `${GENERIC_REASON.transient} (HTTP ${status})`, details);
}

/** The error's text, wherever the body shape puts it (for deciding only). */
function xaiErrorText(body: XaiErrorBody | undefined): string {
  if (!body) return '';
  const error = body.error;
  const nested = error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
  return [error, nested, body.message].filter((part): part is string => typeof part === 'string').join(' ');
}

/** A code worth naming: `error.code` or `code` when it looks like one (`invalid_argument`), never xAI's sentence-like gRPC texts. */
export function xaiErrorCode(body: XaiErrorBody | undefined): string | undefined {
  const error = body?.error;
  const nested = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return providerCode(nested) ?? providerCode(body?.code);
}
