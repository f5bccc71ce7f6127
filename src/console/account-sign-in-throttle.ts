import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { SharedRateLimiters } from '../shared-state/shared-rate-limiters.service';

/** Failed password sign-ins one account name may have in a window, from any number of addresses. */
export const SIGN_IN_FAILURES_PER_ACCOUNT = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60_000;
const LIMITER = 'sign-in-account';

/**
 * Slows password guessing spread over many addresses: once an account name has had its failures in
 * the window, every sign-in to it is refused (the right password too) until the window ends. Counted
 * through Redis when REDIS_URL is set; other accounts are not affected.
 */
@Injectable()
export class AccountSignInThrottle {
  constructor(private readonly limiters: SharedRateLimiters) {}

  /** Throws 429 while the account has no failures left in the window. */
  async admit(username: unknown): Promise<void> {
    const key = accountKey(username);
    if (key === null) return;
    const decision = await this.limiters.peek(LIMITER, SIGN_IN_FAILURES_PER_ACCOUNT, ACCOUNT_WINDOW_MS, key);
    if (decision.allowed) return;
    throw new AppError(ErrorCode.RateLimited, 'too many failed sign-ins for this account, retry later', {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)),
    });
  }

  async recordFailure(username: unknown): Promise<void> {
    const key = accountKey(username);
    if (key !== null) await this.limiters.consume(LIMITER, SIGN_IN_FAILURES_PER_ACCOUNT, ACCOUNT_WINDOW_MS, key);
  }
}

/**
 * The counter of an account name; null for any other JSON (null, a number, an object), which names no
 * account (the body's validation refuses it; this must never be where it fails).
 * MySQL compares usernames case-insensitively: ALICE and alice are one account there.
 */
const accountKey = (username: unknown): string | null => (typeof username === 'string' ? username.trim().toLowerCase() : null);
