import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import type { TaskListQuery } from './task-list-query';
import { TaskEntity } from './task.entity';
import { TaskEventEntity } from './task-event.entity';
import { TaskReadRepository } from './repositories/task-read.repository';
import { TaskStatsRepository } from './repositories/task-stats.repository';

/** What the other modules (the surfaces, the console) may read of tasks; the SQL is TaskReadRepository's and TaskStatsRepository's. */
@Injectable()
export class TaskQueries {
  constructor(
    private readonly tasks: TaskReadRepository,
    private readonly stats: TaskStatsRepository,
  ) {}

  /** Whether any task (of any account, deleted or not) was made with the public model `model`. */
  hasTaskOfModel(model: string): Promise<boolean> {
    return this.tasks.hasTaskOfModel(model);
  }

  /** Any task by its public id (the admin view); 404 when there is none. */
  async findAny(taskId: string): Promise<TaskEntity> {
    const task = await this.tasks.findByTaskId(taskId);
    if (!task) throw AppError.notFound(`task ${taskId} not found`);
    return task;
  }

  /** A task's recorded state changes, oldest first. */
  eventsOf(id: number): Promise<TaskEventEntity[]> {
    return this.tasks.eventsOf(id);
  }

  /** What each attempt of a task reported of its provider's cost, against the channel that made it, first attempt first. */
  providerUsageOf(id: number): ReturnType<TaskReadRepository['providerUsageOf']> {
    return this.tasks.providerUsageOf(id);
  }

  /** A client's own, not deleted, visible task; 404 otherwise (also for another account's task). The poll's hot path. */
  async findOwned(userId: number, taskId: string): Promise<TaskEntity> {
    const task = await this.tasks.findOwnedNotDeleted(userId, taskId);
    if (!task || task.status === 'REJECTED' || task.status === 'SUBMITTING') throw AppError.notFound(`task ${taskId} not found`);
    return task;
  }

  /** One page of tasks matching the filter and the search, in the asked order (newest first by default). */
  list(query: TaskListQuery): Promise<{ data: TaskEntity[]; total: number }> {
    return this.tasks.page(query);
  }

  /** Tasks still not terminal whose poll has been due for longer than `olderThan` ms. */
  findStuck(now: number, olderThan: number, limit = 100): Promise<TaskEntity[]> {
    return this.stats.findStuck(now - olderThan, limit);
  }

  /** How many tasks findStuck would list (without its limit), and when the oldest of them was created. */
  stuckSummary(now: number, olderThan: number): Promise<{ count: number; oldestCreatedAt: number | null }> {
    return this.stats.stuckSummary(now - olderThan);
  }

  /** Tasks created since `fromMs` whose provider finished (or failed) them after they were given up at their deadline. */
  countLateCompletionsSince(fromMs: number): Promise<number> {
    return this.stats.countLateCompletionsSince(fromMs);
  }

  /** Tasks created since `fromMs` per time bucket (`bucketMs` long) and current status (the dashboard's chart). */
  countByBucketAndStatus(fromMs: number, bucketMs: number): Promise<Array<{ bucket: number; status: string; count: number }>> {
    return this.stats.countByBucketAndStatus(fromMs, bucketMs);
  }

  /** Tasks created since `fromMs` per channel (or model) and current status. */
  countByStatusPer(
    column: 'channel_id' | 'model',
    fromMs: number,
  ): Promise<Array<{ key: string | number | null; status: string; count: number }>> {
    return this.stats.countByStatusPer(column, fromMs);
  }

  /**
   * Per channel, over the tasks created since `fromMs`: what customers paid for them (their charges
   * that stand: accepted and not failed, so not refunded), and what the providers reported of their
   * own cost, summed per unit (with how many tasks reported it).
   */
  chargedAndProviderUsageByChannel(fromMs: number): ReturnType<TaskStatsRepository['chargedAndProviderUsageByChannel']> {
    return this.stats.chargedAndProviderUsageByChannel(fromMs);
  }

  /** One page of a client's visible tasks in id order, for cursor paging (`afterId` is exclusive). */
  listOwnedPage(userId: number, options: { afterId?: number; limit: number; order: 'asc' | 'desc' }): Promise<TaskEntity[]> {
    return this.tasks.listVisiblePage(userId, options);
  }

  /** The models a user has ever submitted, sorted. */
  modelsUsedBy(userId: number): Promise<string[]> {
    return this.tasks.modelsUsedBy(userId);
  }

  /** Task id -> failure reason, for those of `taskIds` the user owns. */
  failReasonsOf(userId: number, taskIds: string[]): Promise<Map<string, string | null>> {
    return this.tasks.failReasonsOf(userId, taskIds);
  }
}
