import { keyBudgetState } from './key-budget';

const DAY = 86_400_000;
const key = (budgetUsed: number, start: number | null, budget: number | null = 10_000) => ({
  budget,
  budgetPeriod: '1d' as const,
  budgetPeriodStart: start,
  budgetUsed,
});

describe('a key budget’s current period', () => {
  it('is the stored period while it lasts', () => {
    expect(keyBudgetState(key(4_000, 1_000), 1_000 + DAY - 1)).toEqual({ used: 4_000, periodStart: 1_000, resetsAt: 1_000 + DAY });
  });

  it('starts again at 0 once the stored period is over, on the same grid, however many periods passed', () => {
    expect(keyBudgetState(key(4_000, 1_000), 1_000 + DAY)).toEqual({ used: 0, periodStart: 1_000 + DAY, resetsAt: 1_000 + 2 * DAY });
    expect(keyBudgetState(key(4_000, 1_000), 1_000 + 5 * DAY + 7)).toEqual({
      used: 0,
      periodStart: 1_000 + 5 * DAY,
      resetsAt: 1_000 + 6 * DAY,
    });
  });

  it('is null without a budget', () => {
    expect(keyBudgetState(key(0, null, null), 5)).toBeNull();
  });
});
