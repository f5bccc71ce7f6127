import { microUsdOfQuota, usdTextOfMicro } from '../billing/quota-usd';
import { AppError } from '../common/errors/app-error';
import { customerCsvColumns, operatorCsvColumns, operatorRow, usageCsv, usageFileName, usageRange, type UsageTotals } from './usage-report';

const NOW = Date.UTC(2025, 5, 15, 13, 30); // 2025-06-15T13:30Z
const refusal = (query: { from?: string; to?: string }) => {
  try {
    usageRange(query, NOW);
  } catch (error) {
    return { message: (error as AppError).message, param: (error as AppError).options.param };
  }
  throw new Error('accepted');
};

describe('usage reports: the range', () => {
  it('defaults to the last 30 UTC days, today included, up to now', () => {
    expect(usageRange({}, NOW)).toEqual({ fromMs: Date.UTC(2025, 4, 17), toMs: NOW });
  });

  it('reads Unix seconds as they are and dates as UTC days, a date as `to` included whole', () => {
    expect(usageRange({ from: '1748736000', to: '1748822400' }, NOW)).toEqual({ fromMs: 1748736000_000, toMs: 1748822400_000 });
    expect(usageRange({ from: '2025-06-01', to: '2025-06-01' }, NOW)).toEqual({ fromMs: Date.UTC(2025, 5, 1), toMs: Date.UTC(2025, 5, 2) });
    expect(usageRange({ from: '2024-01-01', to: '2024-12-31' }, NOW)).toEqual({ fromMs: Date.UTC(2024, 0, 1), toMs: Date.UTC(2025, 0, 1) });
  });

  it('refuses, naming the field: a date that is not one, `to` not after `from`, over 366 days', () => {
    expect(refusal({ from: '2025-02-30' })).toEqual({ message: 'from must be Unix seconds or a date YYYY-MM-DD', param: 'from' });
    expect(refusal({ from: '2025-06-02', to: '2025-06-01' })).toMatchObject({ param: 'to' });
    expect(refusal({ from: '1748822400', to: '1748822400' })).toMatchObject({ param: 'to' });
    expect(refusal({ from: '2025-07-01' })).toMatchObject({ param: 'from' });
    expect(refusal({ from: '2024-01-01', to: '2025-01-01' })).toEqual({
      message: 'the range from from to to must be at most 366 days',
      param: 'to',
    });
  });
});

describe('usage reports: money', () => {
  it('rounds quota to the micro-dollar half up, exactly at any size', () => {
    expect(microUsdOfQuota(1n, 10_000)).toBe(100n);
    expect(microUsdOfQuota(1n, 3)).toBe(333_333n);
    expect(microUsdOfQuota(2n, 3)).toBe(666_667n);
    expect(microUsdOfQuota(9_007_199_254_740_993n, 10_000)).toBe(900_719_925_474_099_300n);
    expect(usdTextOfMicro(-1_500_000n)).toBe('-1.500000');
    expect(usdTextOfMicro(42n)).toBe('0.000042');
  });

  it("makes a row that adds up: charged less refunded is what was paid, the margin that less the providers' cost", () => {
    const totals: UsageTotals = {
      key: 7,
      tasks: 3n,
      seconds: 17n,
      finalQuota: 2n,
      chargedQuota: 5n,
      costMicroUsd: 100_000n,
      tasksWithoutCost: 1n,
    };
    expect(operatorRow(totals, 3, 'channel', 'main')).toEqual({
      key: 7,
      name: 'main',
      tasks: 3,
      seconds: 17,
      quota: 2,
      usd_charged: 1.666667,
      usd_refunded: 1,
      provider_cost_usd: 0.1,
      margin_usd: 0.566667,
      tasks_without_cost: 1,
    });
  });
});

describe('usage reports: CSV', () => {
  it('writes a header row, CRLF lines, money with 6 decimals, text quoted where it must be and never a formula', () => {
    const rows = [
      { key: 1, name: '=HYPERLINK("x")', tasks: 2, seconds: 10, quota: 5000, usd: 0.5 },
      { key: null, name: null, tasks: 1, seconds: 0, quota: 0, usd: 0 },
    ];
    expect(usageCsv(rows, customerCsvColumns('key'))).toBe(
      'key,name,tasks,seconds,quota,usd\r\n1,"\'=HYPERLINK(""x"")",2,10,5000,0.500000\r\n,,1,0,0,0.000000\r\n',
    );
    expect(operatorCsvColumns('day')).toEqual([
      'key',
      'tasks',
      'seconds',
      'quota',
      'usd_charged',
      'usd_refunded',
      'provider_cost_usd',
      'margin_usd',
      'tasks_without_cost',
    ]);
    expect(usageFileName({ from: 1748736000, to: 1751328000, group_by: 'model', data: [] })).toBe('usage-model-2025-06-01-2025-06-30.csv');
  });
});
