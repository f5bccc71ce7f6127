import { Injectable } from '@nestjs/common';
import { LOG_TYPES, LogType } from './log.entity';
import { LogRepository, type LogFilter } from './log.repository';

/** Signed sums per type (every type the filter allows, 0 when none), and the row count. */
export type LogTotals<T extends LogType = LogType> = Record<T, number> & { count: number };

/** Signed quota per log type over a filter, summed in the database (the console's and admin API's logs totals). */
@Injectable()
export class LogTotalsService {
  constructor(private readonly logs: LogRepository) {}

  async totals<T extends LogType = LogType>(filter: LogFilter & { types?: readonly T[] }): Promise<LogTotals<T>> {
    const rows = await this.logs.totalsByType(filter);
    const totals = Object.fromEntries((filter.types ?? LOG_TYPES).map((type) => [type, 0])) as LogTotals<T>;
    totals.count = 0;
    for (const row of rows) {
      totals[row.type as T] = row.sum as LogTotals<T>[T];
      totals.count += row.count;
    }
    return totals;
  }

  /** Signed quota and row count of every account's charges and refunds since `fromMs`, per time bucket (`bucketMs` long) and type. */
  chargesAndRefundsByBucket(
    fromMs: number,
    bucketMs: number,
  ): Promise<Array<{ bucket: number; type: string; quota: number; count: number }>> {
    return this.logs.chargesAndRefundsByBucket(fromMs, bucketMs);
  }

  /** Net quota charged to every account since `fromMs` per model (charges minus refunds), positive. */
  netChargedByModel(fromMs: number): Promise<Map<string, number>> {
    return this.logs.netChargedByModel(fromMs);
  }
}
