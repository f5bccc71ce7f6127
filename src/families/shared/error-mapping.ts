import { parseRetryAfter } from '../../upstream/bearer-json-task-api';
import { codeSummary, GENERIC_REASON } from '../../upstream/provider-text';
import { UpstreamError, UpstreamErrorDetails } from '../../upstream/upstream-adapter';

/** How long a throttled channel waits when the provider says nothing (no `Retry-After`). */
export const DEFAULT_RETRY_AFTER_SECONDS = 10;

/** A back-pressure error: the provider's `Retry-After` (a delay or a date), else `fallbackSeconds`. */
export function backpressureError(
  message: string,
  details: UpstreamErrorDetails,
  retryAfterHeader: unknown,
  now: number,
  fallbackSeconds = DEFAULT_RETRY_AFTER_SECONDS,
): UpstreamError {
  return new UpstreamError('backpressure', message, {
    ...details,
    retryAfterSeconds: parseRetryAfter(retryAfterHeader, now) ?? fallbackSeconds,
  });
}

/**
 * What an HTTP status says once a family's codes said nothing: 404/405 on the provider's own paths
 * mean the channel's base_url does not lead to it (the channel); another 4xx is the caller's
 * input; anything else transient. `summary` words each kind's generic reason.
 */
export function errorByStatus(status: number, summary: (generic: string) => string, details: UpstreamErrorDetails): UpstreamError {
  if (status === 404 || status === 405) return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  if (status >= 400 && status < 500) return new UpstreamError('invalid_input', summary(GENERIC_REASON.invalid_input), details);
  return new UpstreamError('transient', summary(GENERIC_REASON.transient), details);
}

/** A provider's documented error codes as data: their words, and what each group of them means. */
export interface ProviderErrorTable {
  /** Each code in the gateway's words (the provider's message is never passed on). */
  reasons: Readonly<Record<string, string>>;
  /** The account or the channel, not the request: next channel, else 503. */
  channel: ReadonlySet<string>;
  /** A refusal of the content: the task fails `content moderation failed`, refunded. */
  moderation: ReadonlySet<string>;
  /** Throttling: back-pressure, like a 429. */
  backpressure: ReadonlySet<string>;
}

/**
 * Maps a provider's code (already read from its body, undefined where it has none worth naming)
 * with the HTTP status, by the family's table: moderation codes -> moderation; 401/403 and the
 * channel codes -> the channel; 429 and the throttling codes -> back-pressure; then the status
 * (errorByStatus). A message names the code and its documented words, or the HTTP status.
 */
export function mapCodedError(
  table: ProviderErrorTable,
  status: number,
  code: string | undefined,
  retryAfterHeader: unknown,
  now: number,
): UpstreamError {
  const summary = (generic: string) => codeSummary(table.reasons, code, generic, code ? undefined : status);
  const details = { upstreamCode: code, httpStatus: status };
  const has = (codes: ReadonlySet<string>) => code !== undefined && codes.has(code);
  if (has(table.moderation))
    return new UpstreamError('moderation', `content moderation failed: ${summary(GENERIC_REASON.moderation)}`, details);
  if (status === 401 || status === 403 || has(table.channel)) return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  if (status === 429 || has(table.backpressure))
    return backpressureError(summary(GENERIC_REASON.backpressure), details, retryAfterHeader, now);
  return errorByStatus(status, summary, details);
}
