import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { ApiKeyEntity } from './api-key.entity';
import { keyBudgetState } from './key-budget';

/** What a charge needs to know of the key: the cached row is enough (the update itself decides). */
export type SpendingKey = Pick<ApiKeyEntity, 'id' | 'budget' | 'budgetPeriod' | 'budgetPeriodStart' | 'budgetUsed'>;

/**
 * A key's own spending (`used_quota`, and `budget_used` in the current period), moved inside the
 * ledger's transaction so that it commits or rolls back with the account's charge and its ledger row.
 */
@Injectable()
export class ApiKeySpending {
  constructor(private readonly clock: Clock) {}

  /**
   * Counts `quota` against the key in one conditional update that can never take it past its
   * quota_limit or its budget (rolling the budget into a new period when the stored one is over);
   * 402 key_quota_exceeded or key_budget_exceeded otherwise. Call before the account's charge.
   */
  async spend(manager: EntityManager, key: SpendingKey, quota: number): Promise<void> {
    // The current period's start from the key as cached; a stale copy only ever rolls forward, never back.
    const periodStart = keyBudgetState(key, this.clock.now())?.periodStart ?? 0;
    const rolled = 'budget_period_start IS NOT NULL AND budget_period_start < :periodStart';
    const updated = await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({
        usedQuota: () => 'used_quota + :quota',
        // budget_used before budget_period_start: MySQL reads columns already assigned in this SET.
        budgetUsed: () => `CASE WHEN ${rolled} THEN :quota ELSE budget_used + :quota END`,
        budgetPeriodStart: () => `CASE WHEN ${rolled} THEN :periodStart ELSE budget_period_start END`,
      })
      .where('id = :id AND (quota_limit IS NULL OR used_quota + :quota <= quota_limit)')
      .andWhere(`(budget IS NULL OR (CASE WHEN ${rolled} THEN 0 ELSE budget_used END) + :quota <= budget)`)
      .setParameters({ id: key.id, quota, periodStart })
      .execute();
    if (updated.affected) return;
    const row = await manager.findOne(ApiKeyEntity, { where: { id: key.id } });
    // No such row (keys are never deleted; a caller without a stored key): nothing to count against.
    if (!row) return;
    if (row.quotaLimit !== null && row.usedQuota + quota > row.quotaLimit) {
      throw new AppError(
        ErrorCode.KeyQuotaExceeded,
        `api key quota exceeded: this key may spend ${row.quotaLimit} units in all, ${Math.max(0, row.quotaLimit - row.usedQuota)} are left and this request costs ${quota}`,
      );
    }
    const state = keyBudgetState(row, this.clock.now());
    const left = row.budget !== null && state ? Math.max(0, row.budget - state.used) : 0;
    throw new AppError(
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
    await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({
        usedQuota: () => 'CASE WHEN used_quota >= :quota THEN used_quota - :quota ELSE 0 END',
        budgetUsed: () =>
          'CASE WHEN budget_period_start IS NULL OR budget_period_start > :chargedAt THEN budget_used WHEN budget_used >= :quota THEN budget_used - :quota ELSE 0 END',
      })
      .where('id = :id')
      .setParameters({ id: keyId, quota, chargedAt })
      .execute();
  }
}
