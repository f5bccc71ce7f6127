import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ErrorCode } from '../common/errors/app-error';
import type { AuthenticatedRequest } from './authenticated-request';
import type { AccountRateLimiter } from './account-rate-limiter';
import type { AdminTokenService } from './admin-token.service';
import type { ApiKeysService, Caller } from './api-keys.service';
import { bearerToken } from '../common/http/bearer';

export const MISSING_API_KEY = 'missing api key: send Authorization: Bearer <API_KEY>';
/** A key sent as the whole header (`Authorization: sk-...`), or under another scheme. */
export const NOT_BEARER = 'Authorization has no Bearer scheme: send Authorization: Bearer <API_KEY>';

/**
 * The one API key check: the bearer token's key and user (its expiry and allowlist), the key's and the
 * account's rate limits, attached to
 * the request. Used before any body is read (below) and by ApiKeyGuard for a route reached otherwise.
 * Settled at once (undefined) for a cached key of an account without a rate limit, most calls; else
 * a promise. Throws or rejects with the 401 or 429.
 */
export function authenticateApiKey(
  req: AuthenticatedRequest,
  apiKeys: ApiKeysService,
  accountLimits: AccountRateLimiter,
): Promise<void> | undefined {
  const token = bearerToken(req);
  if (!token) throw new AppError(ErrorCode.Unauthorized, hasOtherAuthorization(req) ? NOT_BEARER : MISSING_API_KEY);
  // req.ip is the client's address as TRUSTED_PROXIES lets express see it (the sign-in throttle's too); asked only for a key with an allowlist.
  const caller = apiKeys.authenticate(token, () => req.ip ?? req.socket?.remoteAddress);
  if (caller instanceof Promise) return caller.then((found) => admit(req, found, accountLimits));
  return admit(req, caller, accountLimits);
}

/** An Authorization header that is not `Bearer <token>` (a bare key, Basic, ...). */
function hasOtherAuthorization(req: AuthenticatedRequest): boolean {
  const header = req.headers.authorization?.trim();
  return !!header && !/^Bearer(\s|$)/i.test(header);
}

function admit(req: AuthenticatedRequest, caller: Caller, accountLimits: AccountRateLimiter): Promise<void> | undefined {
  const counted = accountLimits.admit(caller.user, caller.apiKey);
  if (counted) return counted.then(() => attach(req, caller));
  attach(req, caller);
  return undefined;
}

function attach(req: AuthenticatedRequest, { apiKey, user }: Caller): void {
  req.apiKey = apiKey;
  req.user = user;
}

/**
 * Resolves the API key and applies the account's rate limit before any body parser runs, so that an
 * unauthenticated or rate-limited request is answered without its body being read (and nothing is
 * charged). ApiKeyGuard then reuses what was found here.
 */
export function authenticateApiKeyBeforeBody(apiKeys: ApiKeysService, accountLimits: AccountRateLimiter): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    let pending: Promise<void> | undefined;
    try {
      pending = authenticateApiKey(req as AuthenticatedRequest, apiKeys, accountLimits);
    } catch (error) {
      return next(error);
    }
    if (pending) pending.then(() => next(), next);
    else next();
  };
}

/**
 * The admin API's bearer token, checked before any body parser runs. A request without one may still
 * carry a console session cookie: ConsoleSessionMiddleware and AdminGuard decide on it later.
 */
export function authenticateAdminBeforeBody(adminToken: AdminTokenService, sessionCookie: string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const token = bearerToken(req);
    if (token) {
      if (!adminToken.matches(token)) return next(new AppError(ErrorCode.Unauthorized, 'invalid admin token'));
      (req as AuthenticatedRequest).isAdmin = true;
      return next();
    }
    if ((req.cookies as Record<string, string> | undefined)?.[sessionCookie]) return next();
    next(new AppError(ErrorCode.Unauthorized, 'missing admin token'));
  };
}
