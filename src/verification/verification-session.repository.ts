import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { VerificationGroupEntity } from './entities/verification-group.entity';
import { VerificationSessionEntity } from './entities/verification-session.entity';

/** What the browser callback reports on a session (unverified). */
export type ReportedResult = Pick<
  VerificationSessionEntity,
  'resultCode' | 'algorithmBaseRespCode' | 'reqMeasureInfoValue' | 'verifyType' | 'callbackAt' | 'status' | 'updatedAt'
>;

/**
 * Liveness sessions (`verification_sessions`) and the portrait groups their confirmation gives an
 * account (`verification_groups`), which only VerificationModule reads and writes.
 */
@Injectable()
export class VerificationSessionRepository {
  constructor(
    @InjectRepository(VerificationSessionEntity) private readonly sessions: Repository<VerificationSessionEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  insert(session: Omit<VerificationSessionEntity, 'id'>): Promise<VerificationSessionEntity> {
    return this.transactions.run((manager) => manager.save(manager.create(VerificationSessionEntity, session)));
  }

  /** The account's session; another account's is simply not found. */
  findOwned(userId: number, sessionId: string): Promise<VerificationSessionEntity | null> {
    return this.sessions.findOne({ where: { sessionId, userId } });
  }

  findByProviderToken(providerToken: string): Promise<VerificationSessionEntity | null> {
    return this.sessions.findOne({ where: { providerToken } });
  }

  /** What a look at the provider found (not a success), unless the session succeeded meanwhile. */
  async recordCheck(id: number, changes: Pick<VerificationSessionEntity, 'status' | 'checkedAt' | 'updatedAt'>): Promise<void> {
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(VerificationSessionEntity)
        .set(changes)
        .where('id = :id AND status <> :done', { id, done: 'succeeded' })
        .execute(),
    );
  }

  /** The browser callback's report, once per session: false when a callback was recorded already. */
  async recordCallbackOnce(id: number, reported: ReportedResult): Promise<boolean> {
    const result = await this.transactions.run((manager) =>
      manager.update(VerificationSessionEntity, { id, callbackAt: IsNull() }, reported),
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * The provider confirmed the session with `groupId`: in one transaction, the group becomes the
   * session's account's (unless it is already) and the session succeeds. Nothing is written when the
   * group belongs to another account: its owner is returned. Two confirmations racing to create the
   * group: the second fails with the unique key's violation (then finds the group on a retry).
   */
  confirm(session: VerificationSessionEntity, groupId: string, now: number): Promise<{ ownedBy: number } | null> {
    return this.transactions.run(async (manager) => {
      const existing = await manager.findOne(VerificationGroupEntity, { where: { groupId } });
      if (existing && existing.userId !== session.userId) return { ownedBy: existing.userId };
      if (!existing) {
        await manager.insert(VerificationGroupEntity, {
          groupId,
          userId: session.userId,
          channelId: session.channelId,
          sessionId: session.sessionId,
          createdAt: now,
        });
      }
      await manager.update(
        VerificationSessionEntity,
        { id: session.id },
        { status: 'succeeded', groupId, confirmedAt: now, checkedAt: now, updatedAt: now },
      );
      return null;
    });
  }
}
