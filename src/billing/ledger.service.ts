import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiKeySpending, SpendingKey } from '../auth/api-key-spending';
import { KeyRefusals } from '../auth/key-refusals';
import { UserRepository } from '../auth/user.repository';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { isUniqueViolation, TransactionRunner } from '../database/transaction-runner';
import { LogEntity, LogType } from './log.entity';
import { LogRepository } from './log.repository';

export interface TaskMovement {
  userId: number;
  taskId: string;
  model: string;
  quota: number;
  channelId?: number | null;
  detail: string;
  /** Charges: the key that pays, whose own limits are checked (and counted) first. */
  apiKey?: SpendingKey | null;
  /** Refunds and releases: the key that paid, and when (its budget gets back only what its current period spent). */
  apiKeyId?: number | null;
  chargedAt?: number;
}

/**
 * The most a user's quota plus used quota may reach: past 2^53 - 1 a balance is no longer an exact
 * JSON number. Charges and refunds only move units between the two, so guarding what adds to the
 * sum (top-ups, positive adjustments) keeps both exact for good.
 */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

const pastMaxBalance = () =>
  AppError.invalid(`quota would take the balance past ${MAX_BALANCE} (quota plus used quota must stay an exact JSON integer)`, 'quota');

/** Thrown inside a transaction when the (task, refund) or (task, release) ledger row already exists. */
export class AlreadyRefundedError extends Error {}

/**
 * Every quota movement: the balance change (through auth's UserRepository) and its ledger row,
 * always in one transaction. Methods taking an EntityManager join the caller's transaction; the
 * others open their own.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly keySpending: ApiKeySpending,
    private readonly refusals: KeyRefusals,
    private readonly users: UserRepository,
    private readonly logs: LogRepository,
  ) {}

  /** Charges a task: one conditional update that cannot overdraw; 402 when the balance cannot pay. */
  chargeIfEnough(manager: EntityManager, movement: TaskMovement): Promise<LogEntity> {
    return this.takeIfEnough(manager, 'consume', movement);
  }

  /**
   * Holds a submit's charge until the provider accepts the task (confirmHold) or refuses it
   * (releaseHold); the balance moves now, like a charge, so a hold cannot overdraw either.
   */
  holdIfEnough(manager: EntityManager, movement: TaskMovement): Promise<LogEntity> {
    return this.takeIfEnough(manager, 'hold', movement);
  }

  /** The provider accepted the task on `channelId`: its hold becomes its charge (no balance moves). False when there was no hold. */
  async confirmHold(manager: EntityManager, taskId: string, channelId: number | null): Promise<boolean> {
    return this.logs.confirmHold(manager, taskId, channelId);
  }

  /**
   * The provider refused the submit: the hold goes back as a `release`, which the customer's
   * ledger leaves out with the hold. A task charged before holds existed is refunded instead.
   */
  async releaseHold(manager: EntityManager, movement: TaskMovement): Promise<LogEntity> {
    const held = await this.logs.hasHold(manager, movement.taskId);
    return this.giveBack(manager, held ? 'release' : 'refund', movement);
  }

  /** A quote: the 402 the hold of `quota` would meet now (the key's limits, then the balance), thrown; reads only. */
  async assertCouldHold(movement: Pick<TaskMovement, 'userId' | 'apiKey' | 'quota'>): Promise<void> {
    let balance: number | null;
    if (movement.apiKey) {
      // The key's limits and the balance in one read.
      const current = await this.users.currentQuotaAndKeyLimits(movement.userId, movement.apiKey.id);
      const refusal = current?.keyLimits ? this.keySpending.refusalIfSpent(current.keyLimits, movement.quota) : null;
      if (refusal) throw refusal;
      balance = current?.quota ?? null;
    } else {
      balance = await this.users.currentQuota(movement.userId);
    }
    if ((balance ?? 0) < movement.quota) throw new AppError(ErrorCode.InsufficientQuota, 'insufficient user quota');
  }

  private async takeIfEnough(manager: EntityManager, type: 'consume' | 'hold', movement: TaskMovement): Promise<LogEntity> {
    // The key's limits first: a key past its quota or budget is refused whatever the balance.
    if (movement.apiKey) {
      try {
        await this.keySpending.spend(manager, movement.apiKey, movement.quota);
      } catch (error) {
        // Logged in a transaction of its own, after this one has rolled back.
        if (error instanceof AppError) {
          const { userId, model } = movement;
          this.refusals.report({ userId, apiKeyId: movement.apiKey.id, code: error.code, message: error.message, model });
        }
        throw error;
      }
    }
    if (!(await this.users.chargeIfEnough(manager, movement.userId, movement.quota, this.clock.now())))
      throw new AppError(ErrorCode.InsufficientQuota, 'insufficient user quota');
    return this.writeLog(manager, type, movement, -movement.quota);
  }

  /**
   * Gives a task's charge back. The unique (task_id, type) key makes a second refund fail
   * with AlreadyRefundedError, which rolls the caller's transaction back.
   */
  refundInTransaction(manager: EntityManager, movement: TaskMovement): Promise<LogEntity> {
    return this.giveBack(manager, 'refund', movement);
  }

  private async giveBack(manager: EntityManager, type: 'refund' | 'release', movement: TaskMovement): Promise<LogEntity> {
    // The key's row before the user's, as a charge locks them, so the two never wait on each other (MySQL deadlocks).
    if (movement.apiKeyId)
      await this.keySpending.refund(manager, movement.apiKeyId, movement.quota, movement.chargedAt ?? this.clock.now());
    await this.users.refund(manager, movement.userId, movement.quota, this.clock.now());
    try {
      return await this.writeLog(manager, type, movement, movement.quota);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AlreadyRefundedError(`task ${movement.taskId} was already ${type === 'refund' ? 'refunded' : 'released'}`);
      throw error;
    }
  }

  /** Refunds in a transaction of its own; false when the task was already refunded. */
  async refundOnce(movement: TaskMovement): Promise<boolean> {
    try {
      await this.transactions.run((manager) => this.refundInTransaction(manager, movement));
      return true;
    } catch (error) {
      if (error instanceof AlreadyRefundedError) return false;
      throw error;
    }
  }

  /** A request an API key's limits refused: a `refused` row that moves no quota, with the reason as its detail. */
  recordRefusal(userId: number, model: string | null, detail: string): Promise<LogEntity> {
    return this.transactions.run((manager) => this.writeLog(manager, 'refused', { userId, model: model ?? undefined, detail }, 0));
  }

  /** Adds quota: one conditional update, refused (400) when it would take the balance past MAX_BALANCE. */
  async topUp(userId: number, quota: number, detail = 'top-up'): Promise<LogEntity> {
    if (!Number.isSafeInteger(quota) || quota <= 0) throw AppError.invalid('quota must be a positive integer', 'quota');
    return this.transactions.run((manager) => this.topUpInTransaction(manager, userId, quota, detail));
  }

  /** `topUp` inside the caller's transaction (a redemption code claimed in the same one). */
  async topUpInTransaction(manager: EntityManager, userId: number, quota: number, detail: string): Promise<LogEntity> {
    if (!(await this.users.addUpTo(manager, userId, quota, MAX_BALANCE, this.clock.now()))) {
      if (!(await this.users.exists(manager, userId))) throw AppError.notFound(`user ${userId} not found`);
      throw pastMaxBalance();
    }
    return this.writeLog(manager, 'topup', { userId, detail }, quota);
  }

  /** A signed correction by an operator; cannot take the balance below zero, nor past MAX_BALANCE. */
  async adjust(userId: number, delta: number, detail: string): Promise<LogEntity> {
    if (!Number.isSafeInteger(delta) || delta === 0) throw AppError.invalid('quota must be a non-zero integer', 'quota');
    return this.transactions.run(async (manager) => {
      if (!(await this.users.adjustWithin(manager, userId, delta, MAX_BALANCE, this.clock.now()))) {
        if (!(await this.users.exists(manager, userId))) throw AppError.notFound(`user ${userId} not found`);
        throw delta > 0 ? pastMaxBalance() : AppError.invalid('adjustment would make the balance negative', 'quota');
      }
      return this.writeLog(manager, 'adjust', { userId, detail }, delta);
    });
  }

  private async writeLog(
    manager: EntityManager,
    type: LogType,
    movement: { userId: number; taskId?: string; model?: string; channelId?: number | null; detail: string },
    signedQuota: number,
  ): Promise<LogEntity> {
    const log = Object.assign(new LogEntity(), {
      type,
      userId: movement.userId,
      taskId: movement.taskId ?? null,
      model: movement.model ?? null,
      quota: signedQuota,
      balanceAfter: await this.users.balanceOf(manager, movement.userId),
      channelId: movement.channelId ?? null,
      detail: movement.detail,
      createdAt: this.clock.now(),
    });
    return this.logs.insert(manager, log);
  }
}
