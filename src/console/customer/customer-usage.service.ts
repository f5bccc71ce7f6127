import { Injectable } from '@nestjs/common';
import { CUSTOMER_LOG_TYPES } from '../../billing/log.entity';
import { LogsService } from '../../billing/logs.service';
import { Clock } from '../../common/runtime/clock';

const DAY_MS = 86_400_000;

export interface UsageDay {
  /** `YYYY-MM-DD` in the viewer's time zone. */
  date: string;
  /** Unix seconds of the day's start. */
  start: number;
  consumed: number;
  refunded: number;
  topped_up: number;
  /** Operator corrections (signed). */
  adjusted: number;
  /** consumed minus refunded. */
  spent: number;
  tasks: number;
  /** Balance at the end of the day (today: now). */
  balance: number;
}

/** Day-by-day quota movements of one customer, bucketed in the database. */
@Injectable()
export class CustomerUsageService {
  constructor(
    private readonly logs: LogsService,
    private readonly clock: Clock,
  ) {}

  /** `balanceNow` anchors the balance line: each earlier day's closing balance is worked back from it. */
  async daily(userId: number, days: number, tzOffsetMinutes: number, balanceNow: number): Promise<UsageDay[]> {
    const offset = tzOffsetMinutes * 60_000;
    // Work in "local" ms (UTC shifted by the viewer's offset) so days break at local midnight.
    const todayStart = startOfDay(this.clock.now() + offset);
    const firstDay = todayStart - (days - 1) * DAY_MS;
    const rows = await this.logs.sumsByDay(userId, firstDay - offset, offset, DAY_MS, CUSTOMER_LOG_TYPES);
    const byDay = new Map<number, UsageDay>();
    for (let day = firstDay; day <= todayStart; day += DAY_MS) {
      byDay.set(day, {
        date: new Date(day).toISOString().slice(0, 10),
        start: Math.floor((day - offset) / 1000),
        consumed: 0,
        refunded: 0,
        topped_up: 0,
        adjusted: 0,
        spent: 0,
        tasks: 0,
        balance: 0,
      });
    }
    for (const row of rows) {
      const entry = byDay.get(Number(row.day));
      if (!entry) continue;
      const sum = Number(row.sum);
      if (row.type === 'consume') {
        entry.consumed += -sum;
        entry.tasks += Number(row.count);
      } else if (row.type === 'refund') entry.refunded += sum;
      else if (row.type === 'topup') entry.topped_up += sum;
      else if (row.type === 'adjust') entry.adjusted += sum;
    }
    const series = [...byDay.values()];
    let balance = balanceNow;
    for (let i = series.length - 1; i >= 0; i--) {
      const entry = series[i];
      entry.spent = entry.consumed - entry.refunded;
      entry.balance = balance;
      balance -= entry.topped_up + entry.adjusted + entry.refunded - entry.consumed;
    }
    return series;
  }
}

const startOfDay = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
