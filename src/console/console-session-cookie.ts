import type { CookieOptions, Request, Response } from 'express';
import { CONSOLE_SESSION_COOKIE } from './console-request';

/** http-only, SameSite=Strict, Secure when the browser reached us over https (directly or via a trusted proxy). */
function cookieOptions(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' };
}

export function setSessionCookie(req: Request, res: Response, sessionId: string, expiresAt: number, now: number): void {
  res.cookie(CONSOLE_SESSION_COOKIE, sessionId, { ...cookieOptions(req), maxAge: Math.max(0, expiresAt - now) });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(CONSOLE_SESSION_COOKIE, cookieOptions(req));
}
