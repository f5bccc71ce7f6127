import type { CookieOptions, Request, Response } from 'express';
import { CONSOLE_SESSION_COOKIE } from './console-request';

/** http-only, SameSite=Strict, Secure when the browser reached us over https (directly or via a trusted proxy). */
function cookieOptions(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' };
}

/**
 * A hint the page's script can read (no secret in it: `1`), living as long as the session cookie: a
 * signed-out page does not ask for its session, so the browser logs no 401.
 */
export const CONSOLE_SIGNED_IN_HINT = 'console_signed_in';

export function setSessionCookie(req: Request, res: Response, sessionId: string, expiresAt: number, now: number): void {
  const maxAge = Math.max(0, expiresAt - now);
  res.cookie(CONSOLE_SESSION_COOKIE, sessionId, { ...cookieOptions(req), maxAge });
  res.cookie(CONSOLE_SIGNED_IN_HINT, '1', { ...cookieOptions(req), httpOnly: false, maxAge });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(CONSOLE_SESSION_COOKIE, cookieOptions(req));
  res.clearCookie(CONSOLE_SIGNED_IN_HINT, { ...cookieOptions(req), httpOnly: false });
}
