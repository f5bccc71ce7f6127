import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error';
import { SharedRateLimiters } from '../shared-state/shared-rate-limiters.service';
import type { UserEntity } from './user.entity';

const MINUTE_MS = 60_000;

/**
 * The account's requests per minute on /v1/* (`users.rpm`, 0 = unlimited), counted over every
 * instance when REDIS_URL is set. Checked right after authentication, before any body is read, so
 * a refused request costs nothing and is charged nothing.
 */
@Injectable()
export class AccountRateLimiter {
  constructor(private readonly limiters: SharedRateLimiters) {}

  /** Nothing to wait for (undefined) when the account has no limit, the usual case: no promise per request. */
  admit(user: UserEntity): Promise<void> | undefined {
    return user.rpm ? this.count(user, user.rpm) : undefined;
  }

  private async count(user: UserEntity, rpm: number): Promise<void> {
    const decision = await this.limiters.consume('rpm', rpm, MINUTE_MS, String(user.id));
    if (decision.allowed) return;
    throw new AppError(ErrorCode.RateLimited, `rate limit reached: this account may send ${rpm} requests per minute`, {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)),
    });
  }
}
