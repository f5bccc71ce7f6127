import { AppError, ErrorCode } from '../common/errors/app-error';
import type { ApiKeyEntity } from './api-key.entity';
import { isAddressAllowed, plainAddress } from './ip-allowlist';

/** The caller's address, or how to find it (worked out only for a key with an allowlist: req.ip walks the proxy settings). */
export type ClientAddress = string | undefined | (() => string | undefined);

/** Whether the key's expiry has passed: every call with it is refused, and it reads `expired`. */
export function isKeyExpired<K extends Pick<ApiKeyEntity, 'expiresAt'>>(apiKey: K, now: number): apiKey is K & { expiresAt: number } {
  return apiKey.expiresAt !== null && apiKey.expiresAt <= now;
}

/** 401 key_expired once the key's expiry has passed; 403 ip_not_allowed from an address off its allowlist. */
export function assertKeyUsable(apiKey: ApiKeyEntity, now: number, address: ClientAddress): void {
  if (isKeyExpired(apiKey, now)) {
    throw new AppError(ErrorCode.KeyExpired, `api key expired at ${new Date(apiKey.expiresAt).toISOString()}`);
  }
  if (!apiKey.allowedIps) return;
  const clientAddress = typeof address === 'function' ? address() : address;
  if (!isAddressAllowed(apiKey.allowedIps, clientAddress ?? '')) {
    const address = clientAddress ? plainAddress(clientAddress) : 'unknown';
    throw new AppError(ErrorCode.IpNotAllowed, `api key may not be used from ${address}`);
  }
}
