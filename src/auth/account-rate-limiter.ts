import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
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

  /**
   * The key's own rpm (`api_keys.rpm`), then the account's, each shared the same way. Nothing to wait
   * for (undefined) when neither has a limit, the usual case: no promise per request.
   */
  admit(user: UserEntity, apiKey?: ApiKeyEntity): Promise<void> | undefined {
    if (apiKey?.rpm) return this.countKey(user, apiKey, apiKey.rpm).then(() => this.admit(user));
    return user.rpm ? this.count(user, user.rpm) : undefined;
  }

  private async countKey(user: UserEntity, apiKey: ApiKeyEntity, rpm: number): Promise<void> {
    const decision = await this.limiters.consume('key-rpm', rpm, MINUTE_MS, String(apiKey.id));
    if (decision.allowed) return;
    const message = `rate limit reached: this api key may send ${rpm} requests per minute`;
    this.refusals.report({ userId: user.id, apiKeyId: apiKey.id, code: ErrorCode.KeyRateLimited, message });
    throw new AppError(ErrorCode.KeyRateLimited, message, { retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)) });
  }

  private async count(user: UserEntity, rpm: number): Promise<void> {
    const decision = await this.limiters.consume('rpm', rpm, MINUTE_MS, String(user.id));
    if (decision.allowed) return;
    throw new AppError(ErrorCode.RateLimited, `rate limit reached: this account may send ${rpm} requests per minute`, {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)),
    });
  }
}
