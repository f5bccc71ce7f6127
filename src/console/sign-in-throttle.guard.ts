import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { SharedRateLimiters } from '../shared-state/shared-rate-limiters.service';
import { clientAddressGroup } from './client-address-group';

/** Password guessing is slowed per client address (an IPv6 /64): this many attempts a minute, over every instance. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 30;

/**
 * Sign-in and sign-up attempts per client address, counted through Redis when REDIS_URL is set.
 * The address is the connection's unless it comes from a TRUSTED_PROXIES proxy (express's
 * `req.ip`), so a client cannot pick a fresh one with X-Forwarded-For; IPv6 addresses count by their
 * /64. Failures per account name are limited apart (AccountSignInThrottle).
 */
@Injectable()
export class SignInThrottleGuard implements CanActivate {
  constructor(private readonly limiters: SharedRateLimiters) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const address = clientAddressGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const decision = await this.limiters.consume('sign-in', SIGN_IN_ATTEMPTS_PER_MINUTE, 60_000, address);
    if (decision.allowed) return true;
    throw new AppError(ErrorCode.RateLimited, 'too many sign-in attempts from this address, retry later', {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.msBeforeNext / 1000)),
    });
  }
}
