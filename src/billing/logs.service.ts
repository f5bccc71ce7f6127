import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, FindOptionsWhere, In, LessThan, LessThanOrEqual, MoreThanOrEqual, Repository } from 'typeorm';
import type { LogFilter } from './log-totals.service';
import { LogEntity, LogType } from './log.entity';
import { findPage } from '../database/find-page';

export interface LogQuery extends LogFilter {
  page: number;
  pageSize: number;
}

/** Reads the ledger for the admin API and the console. */
@Injectable()
export class LogsService {
  constructor(@InjectRepository(LogEntity) private readonly logs: Repository<LogEntity>) {}

  async find(query: LogQuery): Promise<{ data: LogEntity[]; total: number }> {
    const where: FindOptionsWhere<LogEntity> = {};
    if (query.userId !== undefined) where.userId = query.userId;
    if (query.type) where.type = query.types && !query.types.includes(query.type) ? In([]) : query.type;
    else if (query.types) where.type = In([...query.types]);
    if (query.taskId) where.taskId = query.taskId;
    if (query.from !== undefined && query.to !== undefined) where.createdAt = Between(query.from, query.to);
    else if (query.from !== undefined) where.createdAt = MoreThanOrEqual(query.from);
    else if (query.to !== undefined) where.createdAt = LessThanOrEqual(query.to);
    return findPage(this.logs, where, query);
  }

  /**
   * Signed quota and row count per day and type of one user since `from` (ms). Days break at
   * midnight `offsetMs` east of UTC; `day` is the day's start in that shifted time.
   */
  sumsByDay(
    userId: number,
    from: number,
    offsetMs: number,
    dayMs: number,
    types: readonly LogType[],
  ): Promise<Array<{ day: string | number; type: LogType; sum: string | number; count: string | number }>> {
    // `x - x % DAY` is floor division on both MySQL and SQLite (timestamps are positive).
    const bucket = '((l.created_at + :offset) - ((l.created_at + :offset) % :day))';
    return this.logs
      .createQueryBuilder('l')
      .select(bucket, 'day')
      .addSelect('l.type', 'type')
      .addSelect('SUM(l.quota)', 'sum')
      .addSelect('COUNT(*)', 'count')
      .where('l.user_id = :userId', { userId })
      .andWhere('l.created_at >= :from', { from })
      .andWhere('l.type IN (:...types)', { types })
      .setParameters({ offset: offsetMs, day: dayMs })
      .groupBy('day')
      .addGroupBy('l.type')
      .getRawMany();
  }

  /**
   * The balance after the last ledger row of each day (UTC, `dayMs` long) since `from`, and the
   * balance after the last row before `from`: a balance line drawn from the ledger itself.
   */
  async closingBalances(userId: number, from: number, dayMs: number): Promise<{ opening: number | null; byDay: Map<number, number> }> {
    const lastIds: Array<{ day: string | number; last: string | number }> = await this.logs
      .createQueryBuilder('l')
      .select('(l.created_at - (l.created_at % :day))', 'day')
      .addSelect('MAX(l.id)', 'last')
      .where('l.user_id = :userId AND l.created_at >= :from', { userId, from })
      .setParameters({ day: dayMs })
      .groupBy('day')
      .getRawMany();
    const ids = lastIds.map((row) => Number(row.last));
    const rows = ids.length ? await this.logs.find({ select: { id: true, balanceAfter: true }, where: { id: In(ids) } }) : [];
    const balanceOf = new Map(rows.map((row) => [row.id, row.balanceAfter]));
    const byDay = new Map(lastIds.map((row) => [Number(row.day), balanceOf.get(Number(row.last)) ?? 0]));
    const before = await this.logs.findOne({
      select: { id: true, balanceAfter: true },
      where: { userId, createdAt: LessThan(from) },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return { opening: before?.balanceAfter ?? null, byDay };
  }

  /** Net quota charged (charges minus refunds, positive) and tasks charged per model of one user since `from`. */
  async netChargesByModel(userId: number, from: number): Promise<Array<{ model: string; quota: number; tasks: number }>> {
    const rows: Array<{ model: string; sum: string | number; charged: string | number }> = await this.logs
      .createQueryBuilder('l')
      .select('l.model', 'model')
      .addSelect('SUM(l.quota)', 'sum')
      .addSelect("SUM(CASE WHEN l.type = 'consume' THEN 1 ELSE 0 END)", 'charged')
      .where('l.user_id = :userId AND l.created_at >= :from AND l.model IS NOT NULL', { userId, from })
      .andWhere('l.type IN (:...types)', { types: ['consume', 'refund'] })
      .groupBy('l.model')
      .getRawMany();
    return rows.map((row) => ({ model: row.model, quota: -Number(row.sum), tasks: Number(row.charged) }));
  }

  /** Every ledger row of one task, oldest first (its charge, its refund). */
  forTask(taskId: string): Promise<LogEntity[]> {
    return this.logs.find({ where: { taskId }, order: { id: 'ASC' } });
  }

  /** Sum of signed quota per type, for totals in the console. */
  async totals(userId?: number): Promise<Record<string, number>> {
    const qb = this.logs.createQueryBuilder('l').select('l.type', 'type').addSelect('SUM(l.quota)', 'sum').groupBy('l.type');
    if (userId !== undefined) qb.where('l.user_id = :userId', { userId });
    const rows = await qb.getRawMany<{ type: string; sum: string | number }>();
    return Object.fromEntries(rows.map((row) => [row.type, Number(row.sum)]));
  }
}
