import { codeSummary, GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { OpenAiErrorBody } from './openai-protocol';
import { backpressureError, errorByStatus } from '../shared/error-mapping';

/** Error codes and types of the OpenAI error shape, in the gateway's words (the provider's message is never passed on). */
export const OPENAI_ERROR_REASONS: Readonly<Record<string, string>> = {
  invalid_request_error: 'invalid request',
  invalid_request: 'invalid request',
  invalid_value: 'invalid value',
  moderation_blocked: 'the input was blocked by moderation',
  // Another gateway of the chain (this one's kind) refused a submit that looped back through it.
  too_many_gateway_hops: 'the request has passed through too many gateways',
  content_policy_violation: 'the input was blocked by moderation',
  invalid_api_key: 'the provider refused the API key',
  authentication_error: 'the provider refused the API key',
  insufficient_quota: 'the provider account has no quota left',
  rate_limit_exceeded: 'rate limit exceeded',
  rate_limited: 'rate limit exceeded',
  server_error: 'provider internal error',
  service_unavailable: 'the provider is unavailable',
};
const MODERATION = /moderation|content_policy/;
const CHANNEL_CODES = new Set(['invalid_api_key', 'authentication_error', 'insufficient_quota', 'billing_hard_limit_reached']);

/**
 * Maps an OpenAI-shaped error (HTTP status + `{error: {type, param, code}}`): bad input -> 400 with no
 * charge (the upstream enforces its models' constraints), bad key or exhausted account -> channel
 * (503, try another channel), 429 -> back-pressure, 5xx -> transient. Only a code-shaped `code`
 * (else `type`) and `param` are named, never the message.
 */
export function mapOpenAiError(status: number, body: OpenAiErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const error = body?.error && typeof body.error === 'object' ? body.error : undefined;
  const code = providerCode(error?.code) ?? providerCode(error?.type);
  const param = providerCode(error?.param);
  const summary = (generic: string) =>
    `${codeSummary(OPENAI_ERROR_REASONS, code, generic, code ? undefined : status)}${param ? ` (param: ${param})` : ''}`;
  const details = { upstreamCode: code, httpStatus: status };
  if (status === 401 || status === 403 || (code !== undefined && CHANNEL_CODES.has(code)))
    return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  if (status === 429) {
    return backpressureError(summary(GENERIC_REASON.backpressure), details, retryAfterHeader, now);
  }
  if (code && MODERATION.test(code))
    return new UpstreamError('invalid_input', `content moderation failed: ${summary(GENERIC_REASON.moderation)}`, details);
  // 404/405 on the API's own paths: the channel's base_url does not lead to a Videos API.
  return errorByStatus(status, summary, details);
}
