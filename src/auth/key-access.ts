import { AppError, ErrorCode } from '../common/errors/app-error';
import type { ApiKeyEntity } from './api-key.entity';
import { isAddressAllowed, plainAddress } from './ip-allowlist';

/** 401 key_expired once the key's expiry has passed; 403 ip_not_allowed from an address off its allowlist. */
export function assertKeyUsable(apiKey: ApiKeyEntity, now: number, clientAddress: string | undefined): void {
  if (apiKey.expiresAt !== null && apiKey.expiresAt <= now) {
    throw new AppError(ErrorCode.KeyExpired, `api key expired at ${new Date(apiKey.expiresAt).toISOString()}`);
  }
  if (apiKey.allowedIps && !isAddressAllowed(apiKey.allowedIps, clientAddress ?? '')) {
    const address = clientAddress ? plainAddress(clientAddress) : 'unknown';
    throw new AppError(ErrorCode.IpNotAllowed, `api key may not be used from ${address}`);
  }
}
