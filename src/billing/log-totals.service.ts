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
    const qb = this.logs.createQueryBuilder('l').select('l.type', 'type').addSelect('SUM(l.quota)', 'sum').addSelect('COUNT(*)', 'count').groupBy('l.type');
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
}
