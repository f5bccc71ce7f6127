import { providerCode } from '../../upstream/provider-text';
import type { UpstreamError } from '../../upstream/upstream-adapter';
import { mapCodedError, ProviderErrorTable } from '../shared/error-mapping';
import type { ViduErrorBody } from './vidu-protocol';

/** Vidu's error codes (its `reason`, and a failed task's `err_code`), in the gateway's words: its `message` is never passed on. */
export const VIDU_ERROR_REASONS: Readonly<Record<string, string>> = {
  BadRequest: 'invalid request',
  FieldLacking: 'a required field is missing',
  FieldUnwanted: 'a field is not taken',
  FieldItemCountOutOfRange: 'a field has too many or too few items',
  FieldInvalid: 'a field is invalid',
  PageSizeOutOfRange: 'an image size or format is not taken',
  ImageDownloadFailure: 'the provider could not download an input image',
  ImageFormatInvalid: 'an input image format is not taken',
  OperationInProcess: 'the provider is busy with this task',
  AuditSubmitIllegal: 'the input failed the safety review',
  TaskPromptPolicyViolation: 'the prompt was blocked',
  CreationPolicyViolation: 'the output was blocked',
  CreditInsufficient: 'the provider account has no credits left',
  ModelUnavailable: 'the model is unavailable to the provider account',
  UserCancelled: 'cancelled',
  ImageCheck: 'an input image failed the template check',
  Unauthorized: 'authentication failed',
  Forbidden: 'the provider account may not do this',
  TaskNotFound: 'task not found',
  CreationNotFound: 'creation not found',
  NotFound: 'not found',
  Conflict: 'conflict',
  QuotaExceeded: 'too many concurrent tasks',
  TooManyRequests: 'rate limit exceeded',
  SystemThrottling: 'the provider is throttling',
  Canceled: 'the provider cancelled the call',
  InternalServiceFailure: 'provider internal error',
};

/** Input moderation (at submit), prompt moderation (CN docs) and output moderation. */
export const VIDU_MODERATION_CODES: ReadonlySet<string> = new Set([
  'AuditSubmitIllegal',
  'TaskPromptPolicyViolation',
  'CreationPolicyViolation',
]);
/** What Vidu's codes mean: CreditInsufficient (a 400, not a 402) and ModelUnavailable are the channel's. */
const VIDU_ERROR_TABLE: ProviderErrorTable = {
  reasons: VIDU_ERROR_REASONS,
  channel: new Set(['Unauthorized', 'Forbidden', 'CreditInsufficient', 'ModelUnavailable']),
  moderation: VIDU_MODERATION_CODES,
  backpressure: new Set(['QuotaExceeded', 'TooManyRequests', 'SystemThrottling', 'OperationInProcess']),
};

/**
 * Maps Vidu's `{code, reason, message}` with its HTTP status: the moderation codes -> moderation (the
 * task fails `content moderation failed`, refunded); 401/403, CreditInsufficient (a 400, not a 402)
 * and ModelUnavailable -> the channel; 429 and its throttling codes -> back-pressure; 404/405 -> the
 * channel (its base_url does not lead to Vidu, or the task is unknown there); other 4xx -> the
 * caller's input (400 naming the code only); 5xx -> transient.
 */
export function mapViduError(status: number, body: ViduErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  return mapCodedError(VIDU_ERROR_TABLE, status, viduCode(body?.reason), retryAfterHeader, now);
}

/** Vidu's codes are CamelCase names (`CreditInsufficient`, `ImageCheckFailed`); anything else is not passed on. */
export function viduCode(value: unknown): string | undefined {
  const code = providerCode(value);
  return code && /^[A-Z][A-Za-z0-9]{1,63}$/.test(code) ? code : undefined;
}
