import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UserEntity } from '../auth/user.entity';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { randomBase62 } from '../common/runtime/random-id';
import { assertHttpUrl } from '../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isUniqueViolation } from '../database/transaction-runner';
import { GammaControlClient } from '../families/gamma/control-plane/gamma-control.client';
import { isNotFoundAnswer, toClientError } from './control-errors';
import { SessionStatus, VerificationSessionEntity } from './entities/verification-session.entity';
import { maskToken } from './token-mask';
import { VerificationChannels } from './verification-channels.service';
import { VerificationSessionRepository } from './verification-session.repository';

/** The provider's H5 page lives about this long. */
export const SESSION_TTL_MS = 120_000;
/** A late callback or provider answer may trail the H5 page by this much before a session's outcome is final. */
const SETTLE_GRACE_MS = 60_000;

/** Liveness sessions: created at the provider, confirmed only by the provider (GetVisualValidateResult). */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger('Verification');

  constructor(
    private readonly sessions: VerificationSessionRepository,
    private readonly channels: VerificationChannels,
    private readonly control: GammaControlClient,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(user: UserEntity, callbackUrl: string): Promise<VerificationSessionEntity> {
    assertHttpUrl(callbackUrl, 'callback_url');
    const channel = await this.channels.forNewSession();
    // The provider sends the browser to us; we record the result and send it on to the client's URL.
    const result = await this.control.createSession(channel, `${this.config.publicBaseUrl}/v1/callback`).catch((error) => {
      throw toClientError(error, 'callback_url');
    });
    if (typeof result.BytedToken !== 'string' || !result.BytedToken || typeof result.H5Link !== 'string' || !result.H5Link) {
      throw new AppError(ErrorCode.ServiceUnavailable, 'verification provider answered without a token or H5 link, retry later');
    }
    const now = this.clock.now();
    const session = await this.sessions.insert({
      sessionId: `vs_${randomBase62(24)}`,
      userId: user.id,
      channelId: channel.id,
      providerToken: result.BytedToken,
      callbackUrl,
      h5Link: result.H5Link,
      status: 'pending',
      groupId: null,
      resultCode: null,
      algorithmBaseRespCode: null,
      reqMeasureInfoValue: null,
      verifyType: null,
      callbackAt: null,
      confirmedAt: null,
      checkedAt: null,
      expiresAt: now + SESSION_TTL_MS,
      createdAt: now,
      updatedAt: now,
    });
    this.logger.log(
      `session ${session.sessionId} created for user ${user.id} on channel ${channel.id} (token ${maskToken(session.providerToken)})`,
    );
    return session;
  }

  /**
   * The session as the provider sees it: unless it already succeeded (or its outcome is final),
   * asks GetVisualValidateResult; only a returned GroupId makes it `succeeded` and the group the account's.
   */
  async get(user: UserEntity, sessionId: string): Promise<VerificationSessionEntity> {
    const session = await this.sessions.findOwned(user.id, sessionId);
    if (!session) throw AppError.notFound(`session ${sessionId} not found`);
    if (session.status === 'succeeded' || this.isSettled(session)) return session;

    const channel = await this.channels.holding(session.channelId);
    let groupId: string | undefined;
    try {
      const result = await this.control.getValidateResult(channel, session.providerToken);
      groupId = typeof result.GroupId === 'string' && result.GroupId ? result.GroupId : undefined;
    } catch (error) {
      // The provider forgetting an old token just means it never passed.
      if (!isNotFoundAnswer(error)) throw toClientError(error);
    }
    const now = this.clock.now();
    if (groupId) return this.confirm(session, groupId, now);

    const status: SessionStatus =
      session.resultCode !== null && session.resultCode !== '10000' ? 'failed' : now > session.expiresAt ? 'expired' : 'pending';
    const changes = { status, checkedAt: now, updatedAt: now };
    await this.sessions.recordCheck(session.id, changes);
    return Object.assign(session, changes);
  }

  /** Past the H5 page's life (plus grace) and checked with the provider since: nothing can change any more. */
  private isSettled(session: VerificationSessionEntity): boolean {
    return session.checkedAt !== null && session.checkedAt > session.expiresAt + SETTLE_GRACE_MS;
  }

  private async confirm(
    session: VerificationSessionEntity,
    groupId: string,
    now: number,
    retried = false,
  ): Promise<VerificationSessionEntity> {
    try {
      await this.recordGroup(session, groupId, now);
    } catch (error) {
      // A concurrent read confirmed the same group first; the second pass finds its row.
      if (retried || !isUniqueViolation(error)) throw error;
      return this.confirm(session, groupId, now, true);
    }
    this.logger.log(`session ${session.sessionId} confirmed by the provider: group ${groupId}`);
    return Object.assign(session, { status: 'succeeded' as const, groupId, confirmedAt: now, checkedAt: now, updatedAt: now });
  }

  private async recordGroup(session: VerificationSessionEntity, groupId: string, now: number): Promise<void> {
    const taken = await this.sessions.confirm(session, groupId, now);
    if (taken) {
      this.logger.error(`provider group ${groupId} of session ${session.sessionId} already belongs to user ${taken.ownedBy}`);
      throw new AppError(ErrorCode.Conflict, 'the provider returned a portrait group that belongs to another account');
    }
  }
}
