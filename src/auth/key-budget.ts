import { ApiKeyEntity, BUDGET_PERIOD_MS } from './api-key.entity';

export interface KeyBudgetState {
  /** Spent in the current period (0 once the stored period is over, before any use rolls it). */
  used: number;
  /** Start of the current period, ms. */
  periodStart: number;
  /** When the current period ends, ms. */
  resetsAt: number;
}

type BudgetFields = Pick<ApiKeyEntity, 'budget' | 'budgetPeriod' | 'budgetPeriodStart' | 'budgetUsed'>;

/**
 * The budget's current period, worked out from the period start stored on the key and the time:
 * periods follow one another from that start, so no job has to reset keys. Null without a budget.
 */
export function keyBudgetState(key: BudgetFields, now: number): KeyBudgetState | null {
  if (key.budget === null || !key.budgetPeriod || key.budgetPeriodStart === null) return null;
  const length = BUDGET_PERIOD_MS[key.budgetPeriod];
  const elapsed = Math.max(0, now - key.budgetPeriodStart);
  const periodStart = key.budgetPeriodStart + Math.floor(elapsed / length) * length;
  return { used: periodStart === key.budgetPeriodStart ? key.budgetUsed : 0, periodStart, resetsAt: periodStart + length };
}
