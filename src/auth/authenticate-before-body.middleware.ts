import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ErrorCode } from '../common/app-error';
import type { AuthenticatedRequest } from '../common/request-context';
import type { AccountRateLimiter } from './account-rate-limiter';
import type { AdminTokenService } from './admin-token.service';
import type { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer';

export const MISSING_API_KEY = 'missing api key: send Authorization: Bearer <API_KEY>';

/**
 * The one API key check: the bearer token's key and user (its expiry and allowlist), the key's and the
 * account's rate limits, attached to
 * the request. Used before any body is read (below) and by ApiKeyGuard for a route reached otherwise.
 */
export async function authenticateApiKey(
  req: AuthenticatedRequest,
  apiKeys: ApiKeysService,
  accountLimits: AccountRateLimiter,
): Promise<void> {
  const token = bearerToken(req);
  if (!token) throw new AppError(ErrorCode.Unauthorized, MISSING_API_KEY);
  // req.ip is the client's address as TRUSTED_PROXIES lets express see it (the sign-in throttle's too).
  const { apiKey, user } = await apiKeys.authenticate(token, req.ip ?? req.socket?.remoteAddress);
  await accountLimits.admit(user, apiKey);
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
    authenticateApiKey(req as AuthenticatedRequest, apiKeys, accountLimits).then(() => next(), next);
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
