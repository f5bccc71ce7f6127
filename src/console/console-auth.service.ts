import { Injectable } from '@nestjs/common';
import { AdminTokenService } from '../auth/admin-token.service';
import { hashPassword, verifyPassword } from '../auth/password';
import { UsersService } from '../auth/users.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { AccountSignInThrottle } from './account-sign-in-throttle';
import { ConsoleSessionsService } from './console-sessions.service';

/** A bcrypt hash of nothing anyone knows: unknown usernames cost the same time as wrong passwords. */
const DUMMY_HASH = '$2b$10$RstWRe96vp3rQxhK2WydgODwPpS3z0CgEG/WzQyKKzY/lsKxSQ23m';

export interface OpenedSession {
  sessionId: string;
  expiresAt: number;
}

/** Sign-in, sign-up and sign-out for the web console. */
@Injectable()
export class ConsoleAuthService {
  constructor(
    private readonly adminToken: AdminTokenService,
    private readonly users: UsersService,
    private readonly sessions: ConsoleSessionsService,
    private readonly accountThrottle: AccountSignInThrottle,
  ) {}

  async signIn(input: { adminToken?: string; username?: string; password?: string }): Promise<OpenedSession> {
    if (input.adminToken !== undefined) {
      if (!this.adminToken.matches(input.adminToken))
        throw new AppError(ErrorCode.Unauthorized, 'invalid admin token', { param: 'admin_token' });
      return this.sessions.open('admin_token', null);
    }
    if (input.username === undefined || input.password === undefined) {
      throw AppError.invalid('send admin_token, or username and password', input.username === undefined ? 'username' : 'password');
    }
    await this.accountThrottle.admit(input.username);
    const user = await this.users.findByUsername(input.username);
    const matches = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !user.passwordHash || !matches) {
      await this.accountThrottle.recordFailure(input.username);
      throw new AppError(ErrorCode.Unauthorized, 'wrong username or password');
    }
    if (user.status !== 'active') throw new AppError(ErrorCode.Forbidden, 'account is disabled');
    return this.sessions.open('user', user.id);
  }

  /** Self-service sign-up: a customer with a zero balance in the default group (an admin tops up). */
  async signUp(username: string, password: string): Promise<OpenedSession> {
    const user = await this.users.create({ username, passwordHash: await hashPassword(password) });
    return this.sessions.open('user', user.id);
  }

  signOut(sessionId: string): Promise<void> {
    return this.sessions.close(sessionId);
  }
}
