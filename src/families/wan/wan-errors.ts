import { providerCode } from '../../upstream/provider-text';
import type { UpstreamError } from '../../upstream/upstream-adapter';
import { mapCodedError, ProviderErrorTable } from '../shared/error-mapping';
import type { WanErrorBody } from './wan-protocol';

/** DashScope's error codes (a create's `code`, a failed task's `output.code`), in the gateway's words: its `message` is never passed on. */
export const WAN_ERROR_REASONS: Readonly<Record<string, string>> = {
  InvalidParameter: 'invalid parameter',
  'InvalidParameter.DataInspection': 'the input failed the content inspection',
  DataInspectionFailed: 'the input or output failed the content inspection',
  IPInfringementSuspect: 'the input may infringe intellectual property',
  'InvalidFile.DownloadFailed': 'the provider could not download an input file',
  'InvalidFile.Format': 'an input file format is not taken',
  InvalidURL: 'an input URL cannot be downloaded',
  UnsupportedOperation: 'the operation is not supported in the task state',
  Arrearage: 'the provider account is in arrears',
  InvalidApiKey: 'the provider refused the API key',
  AccessDenied: 'access denied',
  'AccessDenied.Unpurchased': 'the model is not activated for the provider account',
  ModelNotFound: 'the provider does not serve the model',
  Throttling: 'rate limit exceeded',
  'Throttling.RateQuota': 'rate quota exceeded',
  'Throttling.AllocationQuota': 'allocated quota exceeded',
  InternalError: 'provider internal error',
  'InternalError.Algo': 'provider internal error',
  InternalServerError: 'provider internal error',
};

/** Refusals of the content, at the create (400) or as a failed task's `output.code` (docs/families.md, Wan: both are read). */
const MODERATION = ['DataInspectionFailed', 'InvalidParameter.DataInspection', 'IPInfringementSuspect'];
export const WAN_MODERATION_CODES: ReadonlySet<string> = new Set(MODERATION);

/** What DashScope's codes mean: the key, the account's standing, an unactivated or unknown model are the channel's. */
const WAN_ERROR_TABLE: ProviderErrorTable = {
  moderation: WAN_MODERATION_CODES,
  backpressure: new Set(['Throttling', 'Throttling.RateQuota', 'Throttling.AllocationQuota']),
  channel: new Set(['InvalidApiKey', 'AccessDenied', 'AccessDenied.Unpurchased', 'Arrearage', 'ModelNotFound']),
  reasons: WAN_ERROR_REASONS,
};

/**
 * Maps DashScope's `{request_id, code, message}` with its HTTP status: the content codes ->
 * moderation (the task fails `content moderation failed`, refunded); 401/403, `Arrearage` (a 400),
 * `ModelNotFound` -> the channel; 429 and `Throttling*` -> back-pressure; 404/405 -> the channel (its
 * base_url does not lead to DashScope); other 4xx -> the caller's input (400 naming the code only);
 * 5xx -> transient.
 */
export const mapWanError = (status: number, body: WanErrorBody | undefined, retryAfterHeader: unknown, now: number): UpstreamError =>
  mapCodedError(WAN_ERROR_TABLE, status, providerCode(body?.code), retryAfterHeader, now);
