import { Inject, Injectable } from '@nestjs/common';
import { LogsService } from '../../billing/logs.service';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { toCurrencyView } from '../currency.view';
import type { CustomerOverviewDto } from './customer-overview.dto';

const DAY_MS = 86_400_000;
export const OVERVIEW_RANGES = { '7d': 7, '30d': 30 } as const;
export type OverviewRange = keyof typeof OVERVIEW_RANGES;

/**
 * A customer's overview charts over 7 or 30 UTC days: net spend and refunds per day, the closing
 * balance per day read from the ledger, spend per model. Only what the customer paid counts (a
 * refused submit's hold and release are not theirs).
 */
@Injectable()
export class CustomerOverviewService {
  constructor(
    private readonly logs: LogsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async build(userId: number, balance: number, range: OverviewRange, accountCreatedAt = 0): Promise<CustomerOverviewDto> {
    const now = this.clock.now();
    const today = now - (now % DAY_MS);
    const days = Array.from({ length: OVERVIEW_RANGES[range] }, (_, i) => today - (OVERVIEW_RANGES[range] - 1 - i) * DAY_MS);
    const from = days[0];
    const [sums, balances, byModel] = await Promise.all([
      this.logs.sumsByDay(userId, from, 0, DAY_MS, ['consume', 'refund']),
      this.logs.closingBalances(userId, from, DAY_MS),
      this.logs.netChargesByModel(userId, from),
    ]);
    const index = new Map(days.map((day, i) => [day, i]));
    const spend = days.map(() => 0);
    const refunds = days.map(() => 0);
    for (const row of sums) {
      const i = index.get(Number(row.day));
      if (i === undefined) continue;
      // Charges are negative in the ledger, refunds positive: spend is what left the balance net.
      spend[i] -= Number(row.sum);
      if (row.type === 'refund') refunds[i] += Number(row.sum);
    }
    let carried = balances.opening ?? 0;
    // A day that ended before the account existed has no balance (null: the chart draws nothing, not 0).
    const closing = days.map((day) => {
      carried = balances.byDay.get(day) ?? carried;
      return day + DAY_MS <= accountCreatedAt ? null : carried;
    });
    return {
      range,
      days: days.map((day) => new Date(day).toISOString().slice(0, 10)),
      spend_by_day: spend,
      refund_by_day: refunds,
      balance_by_day: closing,
      balance,
      spend_by_model: byModel
        .filter((row) => row.quota !== 0 || row.tasks !== 0)
        .sort((a, b) => b.quota - a.quota || a.model.localeCompare(b.model)),
      currency: toCurrencyView(this.config),
    };
  }
}
