import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { describeCode, GENERIC_REASON, providerCode } from '../../upstream/provider-text';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { mapCodedError, ProviderErrorTable } from '../shared/error-mapping';
import type { SeedanceErrorBody } from './seedance-protocol';

/** Ark's error codes (HTTP errors and a failed task's `error.code`) in the gateway's words: its `message` is never passed on. */
export const SEEDANCE_ERROR_REASONS: Readonly<Record<string, string>> = {
  MissingParameter: 'a required field is missing',
  InvalidParameter: 'a field is invalid',
  InvalidEndpoint: 'the endpoint is not usable',
  'InvalidEndpoint.ClosedEndpoint': 'the endpoint is closed',
  InvalidEndpointOrModel: 'the model or endpoint is not found',
  ModelNotOpen: 'the model is not activated for the provider account',
  AuthenticationError: 'authentication failed',
  AccessDenied: 'the provider account may not do this',
  AccountOverdueError: 'the provider account is in arrears',
  RateLimitExceeded: 'rate limit exceeded',
  QuotaExceeded: 'the provider quota is used up',
  ServerOverloaded: 'the provider is overloaded',
  ResourceNotFound: 'task not found',
  OperationDenied: 'the task cannot be changed in its state',
  InternalServiceError: 'provider internal error',
};

/**
 * What Ark's content checks are called: `SensitiveContentDetected` (and `.SevereViolation`, ...), the
 * input and output variants (`InputImageSensitiveContentDetected.PrivacyInformation`,
 * `OutputVideoSensitiveContentDetected`), and the content-security product's `*RiskDetection` and
 * `ContentSecurityDetectionError`.
 */
const MODERATION =
  /^(?:(?:Input|Output)(?:Text|Image|Video|Audio))?SensitiveContentDetected(?:\.|$)|RiskDetection(?:\.|$)|^ContentSecurityDetectionError/;

export function isSeedanceModeration(code: string | undefined): boolean {
  return code !== undefined && MODERATION.test(code);
}

/** The codes that say the account or the channel is at fault, and Ark's throttling codes (with their documented variants). */
const SEEDANCE_ERROR_TABLE: ProviderErrorTable = {
  reasons: SEEDANCE_ERROR_REASONS,
  channel: new Set([
    'AuthenticationError',
    'AccessDenied',
    'AccountOverdueError',
    'ModelNotOpen',
    'InvalidEndpoint.ClosedEndpoint',
    'InvalidEndpointOrModel.NotFound',
  ]),
  moderation: new Set(),
  backpressure: new Set([
    'RateLimitExceeded',
    'RateLimitExceeded.EndpointRPMExceeded',
    'RateLimitExceeded.EndpointTPMExceeded',
    'QuotaExceeded',
    'ServerOverloaded',
  ]),
};

/**
 * Maps Ark's `{error: {code, message}}` with its HTTP status: a content check -> moderation (the task
 * fails `content moderation failed`, refunded); 401/403, arrears, a model not activated or a closed
 * endpoint -> the channel; 429 and the throttling codes -> back-pressure; 404/405 -> the channel (its
 * base_url does not lead to Ark, or the task is unknown there); other 4xx -> the caller's input (400
 * naming the code only); 5xx -> transient.
 */
export function mapSeedanceError(
  status: number,
  body: SeedanceErrorBody | undefined,
  retryAfterHeader: unknown,
  now: number,
): UpstreamError {
  const code = seedanceCode(body?.error?.code);
  if (isSeedanceModeration(code))
    return new UpstreamError('moderation', failureReason(FAILURE.moderation, code), { upstreamCode: code, httpStatus: status });
  return mapCodedError(SEEDANCE_ERROR_TABLE, status, code, retryAfterHeader, now);
}

/** A failed task's reason: moderation by its code, else `generation failed: <code>: <words>`. */
export function seedanceFailReason(code: string | undefined): string {
  if (isSeedanceModeration(code)) return failureReason(FAILURE.moderation, code);
  return failureReason(
    FAILURE.generation,
    code,
    code ? (describeCode(SEEDANCE_ERROR_REASONS, code) ?? GENERIC_REASON.transient) : undefined,
  );
}

/** Ark's codes are CamelCase names with dotted variants (`InvalidParameter.Duration`); anything else is not passed on. */
export function seedanceCode(value: unknown): string | undefined {
  const code = providerCode(value);
  return code && /^[A-Z][A-Za-z0-9]{1,63}(?:\.[A-Za-z0-9]{1,63}){0,3}$/.test(code) ? code : undefined;
}
