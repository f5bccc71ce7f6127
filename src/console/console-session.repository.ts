import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Not, Repository } from 'typeorm';
import { deleteExpiredBatch } from '../database/delete-expired-batch';
import { TransactionRunner } from '../database/transaction-runner';
import { ConsoleSessionEntity } from './console-session.entity';

/** The console's sessions (`console_sessions`, which only ConsoleModule reads and writes), by the hash of their id. */
@Injectable()
export class ConsoleSessionRepository {
  constructor(
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Writes a new session and, in the same transaction, deletes those expired before `now` (the table holds about a day). */
  async insertSweepingExpired(session: Omit<ConsoleSessionEntity, 'id'>, now: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      await manager.delete(ConsoleSessionEntity, { expiresAt: LessThan(now) });
      await manager.insert(ConsoleSessionEntity, session);
    });
  }

  /** The session with this token hash, unless it expired by `now`. */
  findLive(tokenHash: string, now: number): Promise<ConsoleSessionEntity | null> {
    return this.sessions.findOne({ where: { tokenHash, expiresAt: MoreThan(now) } });
  }

  async deleteByTokenHash(tokenHash: string): Promise<void> {
    await this.transactions.run((manager) => manager.delete(ConsoleSessionEntity, { tokenHash }));
  }

  /** Deletes every user session of `userId` but `keepId`'s. */
  async deleteUserSessions(userId: number, keepId?: number): Promise<void> {
    await this.transactions.run((manager) =>
      manager.delete(ConsoleSessionEntity, { userId, kind: 'user', ...(keepId !== undefined ? { id: Not(keepId) } : {}) }),
    );
  }

  /** Housekeeping: deletes up to `limit` sessions that expired before `now`; returns how many. */
  deleteExpired(now: number, limit: number): Promise<number> {
    return deleteExpiredBatch(this.transactions, ConsoleSessionEntity, { expiresAt: LessThan(now) }, limit);
  }
}
