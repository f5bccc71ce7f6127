import { AppError } from '../common/errors/app-error';
import type { ApiKeyEntity, BudgetPeriod } from './api-key.entity';

/** A key's limits as the admin API and the console take them (validated by KeyLimitsDto); null lifts one. */
export interface KeyLimitsInput {
  quota_limit?: number | null;
  budget?: number | null;
  budget_period?: BudgetPeriod | null;
  /** Unix seconds. */
  expires_at?: number | null;
  allowed_ips?: string[] | null;
  rpm?: number | null;
}

type LimitColumns = Pick<
  ApiKeyEntity,
  'quotaLimit' | 'budget' | 'budgetPeriod' | 'budgetUsed' | 'budgetPeriodStart' | 'expiresAt' | 'allowedIps' | 'rpm'
>;

/**
 * The columns an input changes on `existing` (null when the key is new). A budget that starts, or
 * changes its period, starts a fresh period now; changing only its amount keeps what was spent.
 */
export function keyLimitColumns(input: KeyLimitsInput, existing: LimitColumns | null, now: number): Partial<LimitColumns> {
  const changes: Partial<LimitColumns> = {};
  if (input.quota_limit !== undefined) changes.quotaLimit = input.quota_limit;
  if (input.expires_at !== undefined) changes.expiresAt = input.expires_at === null ? null : input.expires_at * 1000;
  if (input.allowed_ips !== undefined) changes.allowedIps = input.allowed_ips && input.allowed_ips.length > 0 ? input.allowed_ips : null;
  if (input.rpm !== undefined) changes.rpm = input.rpm ?? 0;
  if (input.budget === null) {
    Object.assign(changes, { budget: null, budgetPeriod: null, budgetUsed: 0, budgetPeriodStart: null });
  } else if (input.budget !== undefined || input.budget_period !== undefined) {
    const budget = input.budget ?? existing?.budget ?? null;
    if (budget === null) throw AppError.invalid('budget_period needs a budget', 'budget');
    const period = input.budget_period ?? existing?.budgetPeriod ?? '1d';
    changes.budget = budget;
    changes.budgetPeriod = period;
    if (!existing || existing.budget === null || existing.budgetPeriod !== period) {
      changes.budgetUsed = 0;
      changes.budgetPeriodStart = now;
    }
  }
  return changes;
}
