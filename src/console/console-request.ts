import type { UserEntity } from '../auth/user.entity';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import type { ConsoleSessionKind } from './console-session.entity';

export type ConsoleRole = 'admin' | 'user';

/** A valid console session, as the session middleware attaches it to a request. */
export interface ResolvedConsoleSession {
  id: number;
  kind: ConsoleSessionKind;
  role: ConsoleRole;
  /** The signed-in user (absent for an admin-token session). */
  user: UserEntity | null;
  expiresAt: number;
  csrfToken: string;
}

export interface ConsoleRequest extends AuthenticatedRequest {
  consoleSession?: ResolvedConsoleSession;
}

/** The session cookie: http-only, SameSite=Strict, Secure over https. */
export const CONSOLE_SESSION_COOKIE = 'gw_console_session';
/** State-changing console calls must echo the session's CSRF token in this header. */
export const CSRF_HEADER = 'x-csrf-token';
