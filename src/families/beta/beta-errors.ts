import { codeSummary, GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { BetaErrorBody } from './beta-protocol';
import { backpressureError, errorByStatus } from '../shared/error-mapping';

const MODERATION_CODES = new Set(['DataInspectionFailed', 'InvalidParameter.DataInspection']);

/** The provider's documented error codes, in the gateway's words (its own messages are never passed on). */
export const BETA_ERROR_REASONS: Readonly<Record<string, string>> = {
  InvalidParameter: 'invalid parameter',
  'BadRequest.EmptyInput': 'the input is empty',
  InvalidURL: 'a media URL cannot be downloaded',
  UnsupportedOperation: 'unsupported operation',
  DataInspectionFailed: 'the input may contain inappropriate content',
  'InvalidParameter.DataInspection': 'the input may contain inappropriate content',
  Arrearage: 'the provider account is in arrears',
  InvalidApiKey: 'the provider refused the API key',
  AccessDenied: 'access denied',
  Throttling: 'rate limit exceeded',
  'Throttling.RateQuota': 'rate quota exceeded',
  InternalError: 'provider internal error',
};
const CHANNEL_CODES = new Set(['InvalidApiKey', 'AccessDenied', 'Arrearage']);

/**
 * Maps a synchronous provider error (HTTP status + `{code, message}`) to how the gateway treats
 * it: the caller's input and moderation -> invalid_input (400, no charge); throttling ->
 * backpressure (429); auth, access and arrears -> channel (503, try another channel); 5xx -> transient.
 * The message is the code's documented reason (a generic one for other codes), never the provider's text.
 */
export function mapBetaError(status: number, body: BetaErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const code = providerCode(body?.code) ?? '';
  const summary = (generic: string) => codeSummary(BETA_ERROR_REASONS, code || undefined, generic, code ? undefined : status);
  const details = { upstreamCode: code || undefined, httpStatus: status };
  const isChannelCode = CHANNEL_CODES.has(code) || [...CHANNEL_CODES].some((prefix) => code.startsWith(`${prefix}.`));
  if (status === 429 || code.startsWith('Throttling')) {
    return backpressureError(summary(GENERIC_REASON.backpressure), details, retryAfterHeader, now);
  }
  if (isChannelCode || status === 401 || status === 403) return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  if (MODERATION_CODES.has(code))
    return new UpstreamError('invalid_input', `content moderation failed: ${summary(GENERIC_REASON.moderation)}`, details);
  // 404/405 on the provider's own paths means the channel's base_url is wrong, not the caller's input.
  return errorByStatus(status, summary, details);
}
