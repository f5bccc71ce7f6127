import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, In, IsNull, LessThan, Repository } from 'typeorm';
import { AppError } from '../common/app-error';
import { TaskEntity } from './task.entity';
import { POLLABLE_STATUSES, TaskStatus } from './task-status';
import { findPage } from '../database/find-page';
import { LeanReads } from '../database/lean-reads';

export interface TaskListQuery {
  userId?: number;
  status?: TaskStatus[];
  model?: string;
  /** Leave out tasks their owner deleted (what the customer console shows). */
  excludeDeleted?: boolean;
  page: number;
  pageSize: number;
}

/** What the other modules (the surfaces, the console) may read of tasks; the writes stay in TaskRepository. */
@Injectable()
export class TaskQueries {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly reads: LeanReads,
  ) {}

  /** A client's own, not deleted, visible task; 404 otherwise (also for another account's task). The poll's hot path. */
  async findOwned(userId: number, taskId: string): Promise<TaskEntity> {
    const task = await this.reads.findOne(TaskEntity, 'task_id = ? AND user_id = ? AND deleted_at IS NULL', [taskId, userId]);
    if (!task || task.status === 'REJECTED' || task.status === 'SUBMITTING') throw AppError.notFound(`task ${taskId} not found`);
    return task;
  }

  async list(query: TaskListQuery): Promise<{ data: TaskEntity[]; total: number }> {
    const where: FindOptionsWhere<TaskEntity> = {};
    if (query.userId !== undefined) where.userId = query.userId;
    if (query.status?.length) where.status = In(query.status);
    if (query.model) where.model = query.model;
    if (query.excludeDeleted) where.deletedAt = IsNull();
    return findPage(this.tasks, where, query);
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

  /** One page of a client's visible tasks in id order, for cursor paging (`afterId` is exclusive). */
  listOwnedPage(userId: number, options: { afterId?: number; limit: number; order: 'asc' | 'desc' }): Promise<TaskEntity[]> {
    const qb = this.tasks
      .createQueryBuilder('t')
      .where('t.user_id = :userId', { userId })
      .andWhere('t.deleted_at IS NULL')
      .andWhere('t.status NOT IN (:...hidden)', { hidden: ['REJECTED', 'SUBMITTING'] });
    if (options.afterId !== undefined) qb.andWhere(options.order === 'desc' ? 't.id < :afterId' : 't.id > :afterId', { afterId: options.afterId });
    return qb.orderBy('t.id', options.order === 'desc' ? 'DESC' : 'ASC').take(options.limit).getMany();
  }

  /** The models a user has ever submitted, sorted. */
  async modelsUsedBy(userId: number): Promise<string[]> {
    const rows = await this.tasks.createQueryBuilder('t').select('DISTINCT t.model', 'model').where('t.user_id = :userId', { userId }).getRawMany<{ model: string }>();
    return rows.map((row) => row.model).sort();
  }

  /** Task id -> failure reason, for those of `taskIds` the user owns. */
  async failReasonsOf(userId: number, taskIds: string[]): Promise<Map<string, string | null>> {
    if (taskIds.length === 0) return new Map();
    const tasks = await this.tasks.find({ select: { taskId: true, failReason: true }, where: { taskId: In(taskIds), userId } });
    return new Map(tasks.map((task) => [task.taskId, task.failReason]));
  }

}
