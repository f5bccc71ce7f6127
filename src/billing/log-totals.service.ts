import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LOG_TYPES, LogEntity, LogType } from './log.entity';

export interface LogFilter {
  userId?: number;
  type?: LogType;
  /** Only these types (the customer's view leaves out holds and their releases). */
  types?: readonly LogType[];
  taskId?: string;
  /** ms epoch bounds, inclusive. */
  from?: number;
  to?: number;
}

/** Signed sums per type (every type the filter allows, 0 when none), and the row count. */
export type LogTotals<T extends LogType = LogType> = Record<T, number> & { count: number };

/** Signed quota per log type over a filter, summed in the database (the console's and admin API's logs totals). */
@Injectable()
export class LogTotalsService {
  constructor(@InjectRepository(LogEntity) private readonly logs: Repository<LogEntity>) {}

  async totals<T extends LogType = LogType>(filter: LogFilter & { types?: readonly T[] }): Promise<LogTotals<T>> {
    const qb = this.logs
      .createQueryBuilder('l')
      .select('l.type', 'type')
      .addSelect('SUM(l.quota)', 'sum')
      .addSelect('COUNT(*)', 'count')
      .groupBy('l.type');
    if (filter.userId !== undefined) qb.andWhere('l.user_id = :userId', { userId: filter.userId });
    if (filter.type) qb.andWhere('l.type = :type', { type: filter.type });
    if (filter.types) qb.andWhere('l.type IN (:...types)', { types: filter.types });
    if (filter.taskId) qb.andWhere('l.task_id = :taskId', { taskId: filter.taskId });
    if (filter.from !== undefined) qb.andWhere('l.created_at >= :from', { from: filter.from });
    if (filter.to !== undefined) qb.andWhere('l.created_at <= :to', { to: filter.to });
    const rows = await qb.getRawMany<{ type: LogType; sum: string | number; count: string | number }>();
    const totals = Object.fromEntries((filter.types ?? LOG_TYPES).map((type) => [type, 0])) as LogTotals<T>;
    totals.count = 0;
    for (const row of rows) {
      totals[row.type as T] = Number(row.sum) as LogTotals<T>[T];
      totals.count += Number(row.count);
    }
    return totals;
  }

  /** Signed quota and row count of every account's charges and refunds since `fromMs`, per time bucket (`bucketMs` long) and type. */
  async chargesAndRefundsByBucket(
    fromMs: number,
    bucketMs: number,
  ): Promise<Array<{ bucket: number; type: string; quota: number; count: number }>> {
    // `x - x % size` floors to a bucket on MySQL and SQLite alike (times are positive).
    const rows: Array<Record<string, string | number>> = await this.logs.manager.query(
      "SELECT (created_at - (created_at % ?)) AS bucket, type, SUM(quota) AS q, COUNT(*) AS n FROM logs WHERE type IN ('consume', 'refund') AND created_at >= ? " +
        'GROUP BY bucket, type',
      [bucketMs, fromMs],
    );
    return rows.map((row) => ({ bucket: Number(row.bucket), type: String(row.type), quota: Number(row.q), count: Number(row.n) }));
  }

  /** Net quota charged to every account since `fromMs` per model (charges minus refunds), positive. */
  async netChargedByModel(fromMs: number): Promise<Map<string, number>> {
    const rows: Array<Record<string, string | number>> = await this.logs.manager.query(
      "SELECT model, SUM(quota) AS q FROM logs WHERE type IN ('consume', 'refund') AND created_at >= ? AND model IS NOT NULL GROUP BY model",
      [fromMs],
    );
    return new Map(rows.map((row) => [String(row.model), -Number(row.q)]));
  }
}
