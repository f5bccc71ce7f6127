import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { bearerToken } from '../common/http/bearer';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { CONSOLE_SESSION_COOKIE, ConsoleRequest, CSRF_HEADER } from './console-request';
import { clearSessionCookie } from './console-session-cookie';
import { ConsoleSessionsService } from './console-sessions.service';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Turns a console session cookie into an identity on `/api/admin/*` and `/console/api/*`:
 * attaches the session, and marks an admin's request so AdminGuard lets it through.
 * A state-changing call must echo the session's CSRF token; a request with a bearer token
 * is an API client's and is left to the guards.
 */
@Injectable()
export class ConsoleSessionMiddleware implements NestMiddleware {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  async use(req: ConsoleRequest, res: Response, next: NextFunction): Promise<void> {
    const sessionId = (req.cookies as Record<string, string> | undefined)?.[CONSOLE_SESSION_COOKIE];
    if (!sessionId || bearerToken(req)) return next();
    const session = await this.sessions.resolve(sessionId);
    if (!session) {
      // Expired, signed out elsewhere, or the user was disabled: drop the dead cookie.
      clearSessionCookie(req, res);
      return next();
    }
    if (!SAFE_METHODS.has(req.method) && !this.sessions.csrfMatches(sessionId, req.header(CSRF_HEADER))) {
      throw new AppError(ErrorCode.Forbidden, 'missing or invalid CSRF token: send the X-CSRF-Token header of your console session');
    }
    req.consoleSession = session;
    if (session.role === 'admin') req.isAdmin = true;
    next();
  }
}
