import type { UpstreamError } from '../../upstream/upstream-adapter';
import { mapCodedError, ProviderErrorTable } from '../shared/error-mapping';
import type { KlingEnvelope } from './kling-protocol';

/** Kling's error codes, in the gateway's words (its `message` is never passed on). */
export const KLING_ERROR_REASONS: Readonly<Record<string, string>> = {
  '1000': 'authentication failed',
  '1001': 'authentication failed: no token',
  '1002': 'authentication failed: invalid token',
  '1003': 'authentication failed: token not yet valid',
  '1004': 'authentication failed: token expired',
  '1100': 'the provider account is restricted',
  '1101': 'the provider account is in arrears',
  '1102': 'the provider resource pack is used up or expired',
  '1103': 'the provider account may not use this model or endpoint',
  '1200': 'invalid request',
  '1201': 'invalid request parameters',
  '1202': 'invalid method',
  '1203': 'resource not found',
  '1300': 'refused by the provider platform policy',
  '1301': 'the input was blocked by moderation',
  '1302': 'rate limit exceeded',
  '1303': 'too many concurrent tasks for the resource pack',
  '1304': 'refused by the IP allowlist',
  '5000': 'provider internal error',
  '5001': 'the provider is under maintenance',
  '5002': 'provider internal timeout',
};
/** What Kling's codes mean: auth, account, balance and resource-pack codes are the channel's. */
const KLING_ERROR_TABLE: ProviderErrorTable = {
  reasons: KLING_ERROR_REASONS,
  channel: new Set(['1000', '1001', '1002', '1003', '1004', '1100', '1101', '1102', '1103', '1202', '1203', '1304']),
  moderation: new Set(['1300', '1301']),
  backpressure: new Set(['1302', '1303']),
};

/**
 * Maps Kling's `{code, message}` with its HTTP status: auth, account, balance and resource-pack
 * codes -> channel (next channel, else 503, nothing charged); 1300/1301 -> moderation (the task
 * fails `content moderation failed`, refunded); 1302/1303 and 429 -> back-pressure; other 4xx ->
 * the caller's input (400 naming the code); 5xx -> transient.
 */
export function mapKlingError(status: number, body: KlingEnvelope | undefined, retryAfterHeader: unknown, now: number): UpstreamError {
  return mapCodedError(KLING_ERROR_TABLE, status, klingCode(body?.code), retryAfterHeader, now);
}

/** Kling's codes are numbers (`1301`); anything else in `code` is not passed on. */
export function klingCode(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^\d{1,6}$/.test(text) ? text : undefined;
}
