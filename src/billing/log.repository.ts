import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, EntityManager, FindOptionsWhere, In, LessThan, LessThanOrEqual, MoreThanOrEqual, Repository } from 'typeorm';
import { findPage } from '../database/find-page';
import { changedRows, insertedId } from '../database/lean-writes';
import { LogEntity, LogType } from './log.entity';

/** Which ledger rows: every condition given must hold. */
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

// The statements of every charge and hold, written once (see lean-writes.ts); the same on every database.
const INSERT_LOG_SQL =
  'INSERT INTO logs (type, user_id, task_id, model, quota, balance_after, channel_id, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
const CONFIRM_HOLD_SQL = "UPDATE logs SET type = 'consume', channel_id = ? WHERE task_id = ? AND type = 'hold'";

/**
 * The ledger (`logs`, which only BillingModule reads and writes): its rows are written inside the
 * transaction that moves the balance; its reads sum in the database.
 */
@Injectable()
export class LogRepository {
  constructor(@InjectRepository(LogEntity) private readonly logs: Repository<LogEntity>) {}

  /**
   * Inside the caller's transaction: writes a ledger row and sets its id. A second row of one
   * task and type fails with the unique (task_id, type) key's violation.
   */
  async insert(manager: EntityManager, log: LogEntity): Promise<LogEntity> {
    log.id = await insertedId(manager, INSERT_LOG_SQL, [
      log.type,
      log.userId,
      log.taskId,
      log.model,
      log.quota,
      log.balanceAfter,
      log.channelId,
      log.detail,
      log.createdAt,
    ]);
    return log;
  }

  /**
   * Inside the caller's transaction: the task's hold becomes its charge (no balance moves), naming the
   * channel that took the task (a submit that failed over is charged on the channel that runs it).
   * False when it had no hold.
   */
  async confirmHold(manager: EntityManager, taskId: string, channelId: number | null): Promise<boolean> {
    return (await changedRows(manager, CONFIRM_HOLD_SQL, [channelId, taskId])) > 0;
  }

  /** Inside the caller's transaction: whether the task's charge is a hold (not yet confirmed). */
  hasHold(manager: EntityManager, taskId: string): Promise<boolean> {
    return manager.exists(LogEntity, { where: { taskId, type: 'hold' } });
  }

  /** One page of the rows `filter` selects, newest first, and how many it selects. */
  page(filter: LogFilter, paging: { page: number; pageSize: number }): Promise<{ data: LogEntity[]; total: number }> {
    const where: FindOptionsWhere<LogEntity> = {};
    if (filter.userId !== undefined) where.userId = filter.userId;
    if (filter.type) where.type = filter.types && !filter.types.includes(filter.type) ? In([]) : filter.type;
    else if (filter.types) where.type = In([...filter.types]);
    if (filter.taskId) where.taskId = filter.taskId;
    if (filter.from !== undefined && filter.to !== undefined) where.createdAt = Between(filter.from, filter.to);
    else if (filter.from !== undefined) where.createdAt = MoreThanOrEqual(filter.from);
    else if (filter.to !== undefined) where.createdAt = LessThanOrEqual(filter.to);
    return findPage(this.logs, where, paging);
  }

  /** Every ledger row of one task, oldest first (its charge, its refund). */
  forTask(taskId: string): Promise<LogEntity[]> {
    return this.logs.find({ where: { taskId }, order: { id: 'ASC' } });
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
    // `x - x % DAY` is floor division on every database (timestamps are positive).
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

  /** The id of the last row of each day (UTC, `dayMs` long) of one user since `from`. */
  async lastIdsByDay(userId: number, from: number, dayMs: number): Promise<Array<{ day: number; last: number }>> {
    const rows: Array<{ day: string | number; last: string | number }> = await this.logs
      .createQueryBuilder('l')
      .select('(l.created_at - (l.created_at % :day))', 'day')
      .addSelect('MAX(l.id)', 'last')
      .where('l.user_id = :userId AND l.created_at >= :from', { userId, from })
      .setParameters({ day: dayMs })
      .groupBy('day')
      .getRawMany();
    return rows.map((row) => ({ day: Number(row.day), last: Number(row.last) }));
  }

  /** The balance each of these rows left, by row id. */
  async balancesAfter(ids: number[]): Promise<Map<number, number>> {
    const rows = ids.length ? await this.logs.find({ select: { id: true, balanceAfter: true }, where: { id: In(ids) } }) : [];
    return new Map(rows.map((row) => [row.id, row.balanceAfter]));
  }

  /** The balance the last row of one user before `before` left, or null when there is none. */
  async balanceBefore(userId: number, before: number): Promise<number | null> {
    const row = await this.logs.findOne({
      select: { id: true, balanceAfter: true },
      where: { userId, createdAt: LessThan(before) },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return row?.balanceAfter ?? null;
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

  /** Sum of signed quota per type, of one user or of everyone. */
  async sumsByType(userId?: number): Promise<Record<string, number>> {
    const qb = this.logs.createQueryBuilder('l').select('l.type', 'type').addSelect('SUM(l.quota)', 'sum').groupBy('l.type');
    if (userId !== undefined) qb.where('l.user_id = :userId', { userId });
    const rows = await qb.getRawMany<{ type: string; sum: string | number }>();
    return Object.fromEntries(rows.map((row) => [row.type, Number(row.sum)]));
  }

  /** Signed quota and row count per type of the rows `filter` selects. */
  async totalsByType(filter: LogFilter): Promise<Array<{ type: LogType; sum: number; count: number }>> {
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
    return rows.map((row) => ({ type: row.type, sum: Number(row.sum), count: Number(row.count) }));
  }

  /** Signed quota and row count of every account's charges and refunds since `fromMs`, per time bucket (`bucketMs` long) and type. */
  async chargesAndRefundsByBucket(
    fromMs: number,
    bucketMs: number,
  ): Promise<Array<{ bucket: number; type: string; quota: number; count: number }>> {
    // `x - x % size` floors to a bucket on every database (times are positive).
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
