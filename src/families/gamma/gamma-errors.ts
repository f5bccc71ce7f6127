import { codeSummary, GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { GammaErrorBody } from './gamma-protocol';

/** The provider's documented data plane error codes, in the gateway's words (its own messages are never passed on). */
export const GAMMA_ERROR_REASONS: Readonly<Record<string, string>> = {
  InvalidParameter: 'invalid parameter',
  MissingParameter: 'a required parameter is missing',
  InputTextSensitiveContentDetected: 'the prompt may contain sensitive content',
  InputImageSensitiveContentDetected: 'the input image may contain sensitive content',
  'InputImageSensitiveContentDetected.PrivacyInformation': 'the input image may contain a real person',
  InputVideoSensitiveContentDetected: 'the input video may contain sensitive content',
  InputAudioSensitiveContentDetected: 'the input audio may contain sensitive content',
  OutputTextSensitiveContentDetected: 'the output may contain sensitive content',
  OutputImageSensitiveContentDetected: 'the output may contain sensitive content',
  OutputVideoSensitiveContentDetected: 'the output may contain sensitive content',
  OutputAudioSensitiveContentDetected: 'the output may contain sensitive content',
  AuthenticationError: 'the provider refused the API key',
  AccessDenied: 'access denied',
  AccountOverdueError: 'the provider account is overdue',
  ModelNotOpen: 'the model is not activated on the provider account',
  InvalidEndpointOrModel: 'the model or endpoint is not available',
  InvalidAccountStatus: 'the provider account is not usable',
  'OperationDenied.ServiceNotOpen': 'the service is not activated on the provider account',
  RateLimitExceeded: 'rate limit exceeded',
  QuotaExceeded: 'quota exceeded',
  ServerOverloaded: 'the provider is overloaded',
  RequestBurstTooFast: 'requests came too fast',
  SetLimitExceeded: 'the account limit set on the provider was reached',
  ResourceNotFound: 'the task does not exist',
  InternalServiceError: 'provider internal error',
};

const THROTTLE = /^(RateLimitExceeded|QuotaExceeded|ServerOverloaded|RequestBurstTooFast|SetLimitExceeded)/;
const CHANNEL =
  /^(AuthenticationError|AccessDenied|AccountOverdue|ModelNotOpen|InvalidEndpointOrModel|InvalidAccountStatus|OperationDenied\.ServiceNotOpen)/;
/** Refusals of the input's content (prompt, images) by the provider's moderation. */
export const isModerationCode = (code: string): boolean => /SensitiveContentDetected|ContentSecurity|RiskDetection/.test(code);

/**
 * Maps a synchronous data plane error (`{"error": {"code", "message"}}` with a 4xx/5xx) to the
 * gateway's kinds: throttling -> backpressure (429), auth/account/model access -> channel (503),
 * moderation and other input errors -> invalid_input (400), 5xx -> transient. The message is the
 * code's documented reason (a generic one for other codes), never the provider's text.
 */
export function mapGammaError(status: number, body: GammaErrorBody | undefined, retryAfter: unknown): UpstreamError {
  const code = providerCode(body?.error?.code) ?? '';
  const summary = (generic: string) => codeSummary(GAMMA_ERROR_REASONS, code || undefined, generic, code ? undefined : status);
  const details = { upstreamCode: code || undefined, httpStatus: status };
  if (status === 429 || THROTTLE.test(code)) {
    const seconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter.trim()) ? Math.max(1, Number(retryAfter)) : 10;
    return new UpstreamError('backpressure', summary(GENERIC_REASON.backpressure), { ...details, retryAfterSeconds: seconds });
  }
  if (status === 401 || status === 403 || CHANNEL.test(code)) return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  if (isModerationCode(code))
    return new UpstreamError('invalid_input', `content moderation failed: ${summary(GENERIC_REASON.moderation)}`, details);
  // A 404/405 without a provider code means the channel's base_url is wrong, not the caller's input.
  if ((status === 404 || status === 405) && !code) return new UpstreamError('channel', summary(GENERIC_REASON.channel), details);
  if (status >= 400 && status < 500) return new UpstreamError('invalid_input', summary(GENERIC_REASON.invalid_input), details);
  return new UpstreamError('transient', summary(GENERIC_REASON.transient), details);
}
