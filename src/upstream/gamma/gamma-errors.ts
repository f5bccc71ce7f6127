import { UpstreamError } from '../upstream-adapter';
import type { GammaErrorBody } from './gamma-protocol';

const THROTTLE = /^(RateLimitExceeded|QuotaExceeded|ServerOverloaded|RequestBurstTooFast|SetLimitExceeded)/;
const CHANNEL = /^(AuthenticationError|AccessDenied|AccountOverdue|ModelNotOpen|InvalidEndpointOrModel|InvalidAccountStatus|OperationDenied\.ServiceNotOpen)/;
/** Refusals of the input's content (prompt, images) by the provider's moderation. */
export const isModerationCode = (code: string): boolean => /SensitiveContentDetected|ContentSecurity|RiskDetection/.test(code);

/**
 * Maps a synchronous data plane error (`{"error": {"code", "message"}}` with a 4xx/5xx) to the
 * gateway's kinds: throttling -> backpressure (429), auth/account/model access -> channel (503),
 * moderation and other input errors -> invalid_input (400), 5xx -> transient.
 */
export function mapGammaError(status: number, body: GammaErrorBody | undefined, retryAfter: unknown): UpstreamError {
  const code = typeof body?.error?.code === 'string' ? body.error.code : '';
  const message = typeof body?.error?.message === 'string' && body.error.message ? body.error.message : `HTTP ${status}`;
  const text = code ? `${code}: ${message}` : message;
  const details = { upstreamCode: code || undefined, httpStatus: status };
  if (status === 429 || THROTTLE.test(code)) {
    const seconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter.trim()) ? Math.max(1, Number(retryAfter)) : 10;
    return new UpstreamError('backpressure', text, { ...details, retryAfterSeconds: seconds });
  }
  if (status === 401 || status === 403 || CHANNEL.test(code)) return new UpstreamError('channel', text, details);
  if (isModerationCode(code)) return new UpstreamError('invalid_input', `content moderation failed: ${text}`, details);
  // A 404/405 without a provider code means the channel's base_url is wrong, not the caller's input.
  if ((status === 404 || status === 405) && !code) return new UpstreamError('channel', text, details);
  if (status >= 400 && status < 500) return new UpstreamError('invalid_input', text, details);
  return new UpstreamError('transient', text, details);
}
