import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error';
import { SharedRateLimiters } from '../shared-state/shared-rate-limiters.service';
import type { ApiKeyEntity } from './api-key.entity';
import { KeyRefusals } from './key-refusals';
import type { UserEntity } from './user.entity';

const MINUTE_MS = 60_000;

/**
 * The account's requests per minute on /v1/* (`users.rpm`, 0 = unlimited), and the key's (`api_keys.rpm`), counted over every
 * instance when REDIS_URL is set. Checked right after authentication, before any body is read, so
 * a refused request costs nothing and is charged nothing.
 */
@Injectable()
export class AccountRateLimiter {
  constructor(
    private readonly limiters: SharedRateLimiters,
    private readonly refusals: KeyRefusals,
  ) {}

  async admit(user: UserEntity, apiKey?: ApiKeyEntity): Promise<void> {
    // The key's own rpm (`api_keys.rpm`), counted apart from the account's, shared the same way.
    if (apiKey?.rpm) {
      const decision = await this.limiters.consume('key-rpm', apiKey.rpm, MINUTE_MS, String(apiKey.id));
      if (!decision.allowed) {
        const message = `rate limit reached: this api key may send ${apiKey.rpm} requests per minute`;
        this.refusals.report({ userId: user.id, apiKeyId: apiKey.id, code: ErrorCode.KeyRateLimited, message });
        throw new AppError(ErrorCode.KeyRateLimited, message, { retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)) });
      }
    }
    if (!user.rpm) return;
    const decision = await this.limiters.consume('rpm', user.rpm, MINUTE_MS, String(user.id));
    if (decision.allowed) return;
    throw new AppError(ErrorCode.RateLimited, `rate limit reached: this account may send ${user.rpm} requests per minute`, {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)),
    });
  }
}
