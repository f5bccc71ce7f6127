import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type pino from 'pino';
import type { AccountRateLimiter } from '../auth/account-rate-limiter';
import type { ApiKeyEntity } from '../auth/api-key.entity';
import type { ApiKeysService } from '../auth/api-keys.service';
import { MISSING_API_KEY } from '../auth/authenticate-before-body.middleware';
import { bearerToken } from '../auth/bearer';
import type { UserEntity } from '../auth/user.entity';
import { errorReply } from '../common/all-exceptions.filter';
import { AppError, ErrorCode } from '../common/app-error';
import { logRequest } from '../common/request-logging.middleware';
import type { SecurityHeaders } from '../common/security-headers';
import type { FastRoute } from './fast-lane';
import { writeJson } from './json-reply';

/** What every fast-lane route of the `/v1` API needs: the log, the headers, the key check and the account rate limit. */
export interface ApiKeyRouteDependencies {
  logger: pino.Logger;
  securityHeaders: SecurityHeaders;
  apiKeys: ApiKeysService;
  accountLimits: AccountRateLimiter;
}

export interface Caller {
  apiKey: ApiKeyEntity;
  user: UserEntity;
}

export interface ApiKeyRouteSpec {
  method: FastRoute['method'];
  pattern: RegExp;
  /** The Nest route's path, as the request log names it. */
  route: string;
  /** Which requests the lane takes (the others go on to Express); all by default. */
  takes?: (req: IncomingMessage) => boolean;
  /** The 200 answer's body for the authenticated caller; throws what the Nest route would. */
  answer: (req: IncomingMessage, res: ServerResponse, caller: Caller, param: string) => Promise<unknown>;
}

/**
 * A fast-lane route behind an API key, in the steps Express and Nest take for the same route: the
 * request id and log line, the security headers, the key and the account rate limit (before any
 * body is read, as authenticateApiKeyBeforeBody), the answer, and any error as the exception filter
 * writes it in the surface's shape.
 */
export function apiKeyRoute(deps: ApiKeyRouteDependencies, spec: ApiKeyRouteSpec): FastRoute {
  const headers: OutgoingHttpHeaders = Object.fromEntries(deps.securityHeaders.set);
  return {
    method: spec.method,
    pattern: spec.pattern,
    takes: spec.takes,
    async handle(req: IncomingMessage, res: ServerResponse, param: string, path: string): Promise<void> {
      let caller: Caller | undefined;
      // As Express logs it: the route's pattern once the caller is known, else the path.
      logRequest(deps.logger, req, res, () => ({ keyId: caller?.apiKey.id ?? null, userId: caller?.user.id ?? null, route: caller ? spec.route : path, path }));
      try {
        const token = bearerToken(req);
        if (!token) throw new AppError(ErrorCode.Unauthorized, MISSING_API_KEY);
        const found = await deps.apiKeys.authenticate(token);
        await deps.accountLimits.admit(found.user);
        caller = found;
        writeJson(req, res, 200, await spec.answer(req, res, found, param), headers);
      } catch (error) {
        const reply = errorReply(error, req.method ?? spec.method, path, req.url);
        writeJson(req, res, reply.status, reply.body, reply.retryAfterSeconds === undefined ? headers : { ...headers, 'Retry-After': String(reply.retryAfterSeconds) });
      }
    },
  };
}
