import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, FindOptionsWhere, In, IsNull, LessThan, LessThanOrEqual, Repository } from 'typeorm';
import { AppError } from '../common/app-error';
import { TransactionRunner } from '../database/transaction-runner';
import { TaskEntity } from './task.entity';
import { POLLABLE_STATUSES, TaskStatus } from './task-status';

export interface TaskListQuery {
  userId?: number;
  status?: TaskStatus[];
  model?: string;
  page: number;
  pageSize: number;
}

/** Task persistence behind intention-revealing methods; atomic steps are atomic in SQL. */
@Injectable()
export class TaskRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** A client's own, not deleted, visible task; 404 otherwise (also for another account's task). */
  async findOwned(userId: number, taskId: string): Promise<TaskEntity> {
    const task = await this.tasks.findOne({ where: { taskId, userId, deletedAt: IsNull() } });
    if (!task || task.status === 'REJECTED' || task.status === 'SUBMITTING') throw AppError.notFound(`task ${taskId} not found`);
    return task;
  }

  findByTaskId(taskId: string): Promise<TaskEntity | null> {
    return this.tasks.findOne({ where: { taskId } });
  }

  findByIdempotencyKey(userId: number, idempotencyKey: string): Promise<TaskEntity | null> {
    return this.tasks.findOne({ where: { userId, idempotencyKey } });
  }

  async list(query: TaskListQuery): Promise<{ data: TaskEntity[]; total: number }> {
    const where: FindOptionsWhere<TaskEntity> = {};
    if (query.userId !== undefined) where.userId = query.userId;
    if (query.status?.length) where.status = In(query.status);
    if (query.model) where.model = query.model;
    const [data, total] = await this.tasks.findAndCount({
      where,
      order: { id: 'DESC' },
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    });
    return { data, total };
  }

  /**
   * Claims up to `limit` due tasks for `owner` with a lease until `leaseUntil`.
   * The conditional UPDATE only takes rows whose lease is free or expired, so two instances
   * never hold the same task; a dead instance's lease simply runs out.
   */
  async claimDueTasks(owner: string, now: number, leaseUntil: number, limit: number, statuses: TaskStatus[] = POLLABLE_STATUSES): Promise<TaskEntity[]> {
    const candidates = await this.tasks.find({
      select: { id: true },
      where: [
        { status: In(statuses), nextPollAt: LessThanOrEqual(now), leaseUntil: IsNull() },
        { status: In(statuses), nextPollAt: LessThanOrEqual(now), leaseUntil: LessThan(now) },
      ],
      order: { nextPollAt: 'ASC' },
      take: limit,
    });
    if (candidates.length === 0) return [];
    const ids = candidates.map((task) => task.id);
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ leaseOwner: owner, leaseUntil })
        .where('id IN (:...ids)', { ids })
        .andWhere('status IN (:...statuses)', { statuses })
        .andWhere('(lease_until IS NULL OR lease_until < :now)', { now })
        .execute(),
    );
    return this.tasks.find({ where: { id: In(ids), leaseOwner: owner, leaseUntil } });
  }

  /**
   * Compare-and-set: applies `changes` only if the task is still in `expectedStatus` (and, when
   * given, still leased by `leaseOwner`). Returns whether this caller won.
   */
  async compareAndSet(
    manager: EntityManager,
    id: number,
    expectedStatus: TaskStatus,
    changes: Partial<TaskEntity>,
    leaseOwner?: string,
  ): Promise<boolean> {
    const qb = manager
      .createQueryBuilder()
      .update(TaskEntity)
      .set(changes)
      .where('id = :id AND status = :expectedStatus', { id, expectedStatus });
    if (leaseOwner) qb.andWhere('lease_owner = :leaseOwner', { leaseOwner });
    const result = await qb.execute();
    return (result.affected ?? 0) > 0;
  }

  /** Lets go of a lease and schedules the next look. */
  async release(id: number, owner: string, changes: Partial<TaskEntity>): Promise<void> {
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ ...changes, leaseOwner: null, leaseUntil: null })
        .where('id = :id AND lease_owner = :owner', { id, owner })
        .execute(),
    );
  }

  /** Tasks still not terminal whose poll has been due for longer than `olderThan` ms. */
  findStuck(now: number, olderThan: number, limit = 100): Promise<TaskEntity[]> {
    return this.tasks.find({
      where: [
        { status: In(POLLABLE_STATUSES), nextPollAt: LessThan(now - olderThan) },
        { status: 'SUBMITTING', createdAt: LessThan(now - olderThan) },
      ],
      order: { nextPollAt: 'ASC' },
      take: limit,
    });
  }

  countByStatus(): Promise<Array<{ status: string; count: number }>> {
    return this.tasks
      .createQueryBuilder('t')
      .select('t.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .groupBy('t.status')
      .getRawMany<{ status: string; count: string | number }>()
      .then((rows) => rows.map((row) => ({ status: row.status, count: Number(row.count) })));
  }

  oldestDuePollAt(now: number): Promise<number | null> {
    return this.tasks
      .createQueryBuilder('t')
      .select('MIN(t.next_poll_at)', 'oldest')
      .where('t.status IN (:...statuses)', { statuses: POLLABLE_STATUSES })
      .andWhere('t.next_poll_at <= :now', { now })
      .getRawOne<{ oldest: string | number | null }>()
      .then((row) => (row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest)));
  }
}
