import { UpstreamError } from '../upstream-adapter';
import type { BetaErrorBody } from './beta-protocol';

const MODERATION_CODES = new Set(['DataInspectionFailed', 'InvalidParameter.DataInspection']);
const CHANNEL_CODES = new Set(['InvalidApiKey', 'AccessDenied', 'Arrearage']);
const DEFAULT_RETRY_AFTER_SECONDS = 10;

/** `Retry-After` in seconds (delta-seconds or an HTTP date), when the provider sent a usable one. */
export function parseRetryAfter(header: unknown, now: number): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Math.max(1, Number(header.trim()));
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
}

/**
 * Maps a synchronous provider error (HTTP status + `{code, message}`) to how the gateway treats
 * it: the caller's input and moderation -> invalid_input (400, no charge); throttling ->
 * backpressure (429); auth, access and arrears -> channel (503, try another channel); 5xx -> transient.
 */
export function mapBetaError(status: number, body: BetaErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  const code = typeof body?.code === 'string' ? body.code : '';
  const message = typeof body?.message === 'string' && body.message ? body.message : `HTTP ${status}`;
  const text = code ? `${code}: ${message}` : message;
  const details = { upstreamCode: code || undefined, httpStatus: status };
  const isChannelCode = CHANNEL_CODES.has(code) || [...CHANNEL_CODES].some((prefix) => code.startsWith(`${prefix}.`));
  if (status === 429 || code.startsWith('Throttling')) {
    return new UpstreamError('backpressure', text, { ...details, retryAfterSeconds: parseRetryAfter(retryAfterHeader, now) ?? DEFAULT_RETRY_AFTER_SECONDS });
  }
  if (isChannelCode || status === 401 || status === 403) return new UpstreamError('channel', text, details);
  if (MODERATION_CODES.has(code)) return new UpstreamError('invalid_input', `content moderation failed: ${text}`, details);
  // 404/405 on the provider's own paths means the channel's base_url is wrong, not the caller's input.
  if (status === 404 || status === 405) return new UpstreamError('channel', text, details);
  if (status >= 400 && status < 500) return new UpstreamError('invalid_input', text, details);
  return new UpstreamError('transient', text, details);
}
