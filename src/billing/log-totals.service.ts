import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LOG_TYPES, LogEntity, LogType } from './log.entity';

export interface LogFilter {
  userId?: number;
  type?: LogType;
  taskId?: string;
  /** ms epoch bounds, inclusive. */
  from?: number;
  to?: number;
}

export type LogTotals = Record<LogType, number> & { count: number };

/** Signed quota per log type over a filter, summed in the database (the console's and admin API's logs totals). */
@Injectable()
export class LogTotalsService {
  constructor(@InjectRepository(LogEntity) private readonly logs: Repository<LogEntity>) {}

  async totals(filter: LogFilter): Promise<LogTotals> {
    const qb = this.logs.createQueryBuilder('l').select('l.type', 'type').addSelect('SUM(l.quota)', 'sum').addSelect('COUNT(*)', 'count').groupBy('l.type');
    if (filter.userId !== undefined) qb.andWhere('l.user_id = :userId', { userId: filter.userId });
    if (filter.type) qb.andWhere('l.type = :type', { type: filter.type });
    if (filter.taskId) qb.andWhere('l.task_id = :taskId', { taskId: filter.taskId });
    if (filter.from !== undefined) qb.andWhere('l.created_at >= :from', { from: filter.from });
    if (filter.to !== undefined) qb.andWhere('l.created_at <= :to', { to: filter.to });
    const rows = await qb.getRawMany<{ type: LogType; sum: string | number; count: string | number }>();
    const totals = Object.fromEntries(LOG_TYPES.map((type) => [type, 0])) as LogTotals;
    totals.count = 0;
    for (const row of rows) {
      totals[row.type] = Number(row.sum);
      totals.count += Number(row.count);
    }
    return totals;
  }
}
