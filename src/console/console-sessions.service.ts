import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { UsersService } from '../auth/users.service';
import { Clock } from '../common/runtime/clock';
import type { ResolvedConsoleSession } from './console-request';
import type { ConsoleSessionKind } from './console-session.entity';
import { ConsoleSessionRepository } from './console-session.repository';

/** Absolute session lifetime: a working day. */
export const CONSOLE_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The CSRF token is derived from the session id, so it needs no storage and dies with the
 * session; it is unguessable because the session id is (256 random bits, never readable by JS).
 */
export const csrfTokenFor = (sessionId: string): string => sha256(`csrf:${sessionId}`).toString('base64url');

/** Server-side console sessions: the cookie holds a random id, the table only its hash. */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    private readonly sessions: ConsoleSessionRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  /** Opens a session; returns the plain session id for the cookie (never stored). */
  async open(kind: ConsoleSessionKind, userId: number | null): Promise<{ sessionId: string; expiresAt: number }> {
    const sessionId = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = now + CONSOLE_SESSION_TTL_MS;
    // Sweep expired rows while we are writing anyway.
    await this.sessions.insertSweepingExpired(
      { tokenHash: sha256(sessionId).toString('hex'), kind, userId, createdAt: now, expiresAt },
      now,
    );
    return { sessionId, expiresAt };
  }

  /** Housekeeping: deletes up to `limit` sessions that expired before `now`; returns how many. */
  deleteExpiredSessions(now: number, limit: number): Promise<number> {
    return this.sessions.deleteExpired(now, limit);
  }

  /** The live session behind a cookie value, with its user re-read (a disabled user is signed out). */
  async resolve(sessionId: string): Promise<ResolvedConsoleSession | null> {
    if (!sessionId || sessionId.length > 128) return null;
    const session = await this.sessions.findLive(sha256(sessionId).toString('hex'), this.clock.now());
    if (!session) return null;
    const csrfToken = csrfTokenFor(sessionId);
    if (session.kind === 'admin_token')
      return { id: session.id, kind: session.kind, role: 'admin', user: null, expiresAt: session.expiresAt, csrfToken };
    const user = session.userId === null ? null : await this.users.findById(session.userId);
    if (!user || user.status !== 'active') return null;
    return {
      id: session.id,
      kind: session.kind,
      role: user.role === 'admin' ? 'admin' : 'user',
      user,
      expiresAt: session.expiresAt,
      csrfToken,
    };
  }

  csrfMatches(sessionId: string, candidate: string | undefined): boolean {
    if (!candidate) return false;
    return timingSafeEqual(sha256(csrfTokenFor(sessionId)), sha256(candidate));
  }

  async close(sessionId: string): Promise<void> {
    await this.sessions.deleteByTokenHash(sha256(sessionId).toString('hex'));
  }

  /** Signs a user out everywhere (their password changed), but for `keepSessionId`: the session that changed it. */
  async closeAllOf(userId: number, keepSessionId?: number): Promise<void> {
    await this.sessions.deleteUserSessions(userId, keepSessionId);
  }
}
