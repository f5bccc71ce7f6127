import { GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { RunwayErrorBody } from './runway-protocol';
import { backpressureError } from '../shared/error-mapping';

/** Runway's 404 for a task id it does not have (another path's 404 says `Not found`). */
const TASK_NOT_FOUND = /task not found/i;
export const RUNWAY_TASK_NOT_FOUND = 'task_not_found';
/** Runway has no status of its own for an empty balance: a 400 that says so (sdk-node issue #28). */
const NO_CREDITS = /not have enough credits|insufficient credits|out of credits/i;

/**
 * Maps a Runway HTTP error: a bad or disabled key and an empty balance are the channel's fault
 * (next channel, else 503); other 4xx are the caller's input (400 naming the first validation
 * issue's code and field, never Runway's text); 429 back-pressure; 5xx transient.
 */
export function mapRunwayError(status: number, body: RunwayErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const details = { httpStatus: status };
  const text = typeof body?.error === 'string' ? body.error : '';
  if (status === 401 || status === 403) return new UpstreamError('channel', `the provider refused the API key (HTTP ${status})`, details);
  if (NO_CREDITS.test(text))
    return new UpstreamError('channel', 'the provider account has no credits left', { ...details, upstreamCode: 'insufficient_credits' });
  if (status === 429) {
    return backpressureError(`${GENERIC_REASON.backpressure} (HTTP 429)`, details, retryAfterHeader, now);
  }
  // Runway's own paths: a 404 or 405 on a submit means the channel's base_url does not lead to Runway.
  if (status === 405) return new UpstreamError('channel', `${GENERIC_REASON.channel} (HTTP 405)`, details);
  if (status === 404 && TASK_NOT_FOUND.test(text))
    return new UpstreamError('channel', 'the provider does not know this task (HTTP 404)', {
      ...details,
      upstreamCode: RUNWAY_TASK_NOT_FOUND,
    });
  if (status === 404) return new UpstreamError('channel', 'the provider does not know this task or path (HTTP 404)', details);
  if (status >= 400 && status < 500)
    return new UpstreamError('invalid_input', issueSummary(body) ?? `${GENERIC_REASON.invalid_input} (HTTP ${status})`, details);
  return new UpstreamError('transient', `${GENERIC_REASON.transient} (HTTP ${status})`, details);
}

/** `invalid_type (param: promptImage)`: the first validation issue's code and path, when they look like ones. */
function issueSummary(body: RunwayErrorBody | undefined): string | undefined {
  const issue = Array.isArray(body?.issues) ? body.issues[0] : undefined;
  if (!issue || typeof issue !== 'object') return undefined;
  const code = providerCode(issue.code);
  const path = Array.isArray(issue.path) ? issuePath(issue.path) : undefined;
  if (!code && !path) return undefined;
  return `${code ?? 'invalid_input'}: ${GENERIC_REASON.invalid_input}${path ? ` (param: ${path})` : ''}`;
}

/** `["promptImage", 0, "uri"]` -> `promptImage[0].uri`; undefined when a segment does not look like a field name. */
function issuePath(segments: unknown[]): string | undefined {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number' && Number.isInteger(segment) && segment >= 0 && segment < 1000) path += `[${segment}]`;
    else if (providerCode(segment) && !String(segment).includes('.')) path += `${path ? '.' : ''}${segment}`;
    else return undefined;
  }
  return path || undefined;
}
