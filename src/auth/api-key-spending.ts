import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository, KeyLimitColumn } from './api-key.repository';
import { keyBudgetState } from './key-budget';

/** What a charge needs to know of the key: the cached row is enough (the update itself decides). */
export type SpendingKey = Pick<ApiKeyEntity, 'id' | 'budget' | 'budgetPeriod' | 'budgetPeriodStart' | 'budgetUsed'>;

/** What a refusal is worked out from: the key's limits and what it has spent. */
export type KeyLimits = Pick<ApiKeyEntity, KeyLimitColumn>;

/**
 * A key's own spending (`used_quota`, and `budget_used` in the current period), moved inside the
 * ledger's transaction so that it commits or rolls back with the account's charge and its ledger row.
 */
@Injectable()
export class ApiKeySpending {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts `quota` against the key in one conditional update that can never take it past its
   * quota_limit or its budget (rolling the budget into a new period when the stored one is over);
   * 402 key_quota_exceeded or key_budget_exceeded otherwise. Call before the account's charge.
   */
  async spend(manager: EntityManager, key: SpendingKey, quota: number): Promise<void> {
    // The current period's start from the key as cached; a stale copy only ever rolls forward, never back.
    const periodStart = keyBudgetState(key, this.clock.now())?.periodStart ?? 0;
    if (await this.keys.spendWithinLimits(manager, key.id, quota, periodStart)) return;
    const row = await this.keys.findIn(manager, key.id);
    // No such row (keys are never deleted; a caller without a stored key): nothing to count against.
    if (row) throw this.refusalIfSpent(row, quota) ?? this.budgetRefusal(row, quota);
  }

  /** Whether spending `quota` would pass these limits (read fresh by a quote): the refusal spend would throw, or null. */
  refusalIfSpent(row: KeyLimits, quota: number): AppError | null {
    if (row.quotaLimit !== null && row.usedQuota + quota > row.quotaLimit) {
      return new AppError(
        ErrorCode.KeyQuotaExceeded,
        `api key quota exceeded: this key may spend ${row.quotaLimit} units in all, ${Math.max(0, row.quotaLimit - row.usedQuota)} are left and this request costs ${quota}`,
      );
    }
    const state = keyBudgetState(row, this.clock.now());
    if (row.budget === null || !state || state.used + quota <= row.budget) return null;
    return this.budgetRefusal(row, quota);
  }

  private budgetRefusal(row: KeyLimits, quota: number): AppError {
    const state = keyBudgetState(row, this.clock.now());
    const left = row.budget !== null && state ? Math.max(0, row.budget - state.used) : 0;
    return new AppError(
      ErrorCode.KeyBudgetExceeded,
      `api key budget exceeded: ${left} units left of ${row.budget ?? 0} per ${row.budgetPeriod ?? 'period'} and this request costs ${quota}; resets at ${state ? new Date(state.resetsAt).toISOString() : 'the next period'}`,
    );
  }

  /**
   * Gives `quota` back to the key: to used_quota always, and to budget_used when it was spent in the
   * current period (charged at `chargedAt`). Runs in the refund's transaction, whose unique ledger
   * row makes it happen once.
   */
  async refund(manager: EntityManager, keyId: number, quota: number, chargedAt: number): Promise<void> {
    await this.keys.giveBack(manager, keyId, quota, chargedAt);
  }
}
