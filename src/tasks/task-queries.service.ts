import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { TaskEntity } from './task.entity';
import { TaskEventEntity } from './task-event.entity';
import { jsonFieldSql } from '../database/json-fields';
import { CHARGED_STATUSES, POLLABLE_STATUSES, TaskStatus } from './task-status';

/** The task lists' orders: a field ascending, or descending with a leading '-'. */
export const TASK_SORT_KEYS = ['created_at', '-created_at', 'status', '-status', 'model', '-model', 'cost', '-cost'] as const;
export type TaskSort = (typeof TASK_SORT_KEYS)[number];
const TASK_SORTS: Record<TaskSort, [string, 'ASC' | 'DESC']> = {
  created_at: ['t.created_at', 'ASC'],
  '-created_at': ['t.id', 'DESC'],
  status: ['t.status', 'ASC'],
  '-status': ['t.status', 'DESC'],
  model: ['t.model', 'ASC'],
  '-model': ['t.model', 'DESC'],
  cost: ['t.quota', 'ASC'],
  '-cost': ['t.quota', 'DESC'],
};
import { LeanReads } from '../database/lean-reads';

export interface TaskListQuery {
  userId?: number;
  /** A task id (exact or its beginning) or words of the prompt (case-insensitive). */
  q?: string;
  sort?: TaskSort;
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
    @InjectRepository(TaskEventEntity) private readonly events: Repository<TaskEventEntity>,
    private readonly reads: LeanReads,
  ) {}

  /** Whether any task (of any account, deleted or not) was made with the public model `model`. */
  hasTaskOfModel(model: string): Promise<boolean> {
    return this.tasks.exists({ where: { model }, withDeleted: true });
  }

  /** Any task by its public id (the admin view); 404 when there is none. */
  async findAny(taskId: string): Promise<TaskEntity> {
    const task = await this.tasks.findOne({ where: { taskId } });
    if (!task) throw AppError.notFound(`task ${taskId} not found`);
    return task;
  }

  /** A task's recorded state changes, oldest first. */
  eventsOf(id: number): Promise<TaskEventEntity[]> {
    return this.events.find({ where: { taskRowId: id }, order: { id: 'ASC' } });
  }

  /** A client's own, not deleted, visible task; 404 otherwise (also for another account's task). The poll's hot path. */
  async findOwned(userId: number, taskId: string): Promise<TaskEntity> {
    const task = await this.reads.findOne(TaskEntity, 'task_id = ? AND user_id = ? AND deleted_at IS NULL', [taskId, userId]);
    if (!task || task.status === 'REJECTED' || task.status === 'SUBMITTING') throw AppError.notFound(`task ${taskId} not found`);
    return task;
  }

  /** One page of tasks matching the filter and the search, in the asked order (newest first by default). */
  async list(query: TaskListQuery): Promise<{ data: TaskEntity[]; total: number }> {
    const qb = this.tasks.createQueryBuilder('t');
    if (query.userId !== undefined) qb.andWhere('t.user_id = :userId', { userId: query.userId });
    if (query.status?.length) qb.andWhere('t.status IN (:...status)', { status: query.status });
    if (query.model) qb.andWhere('t.model = :model', { model: query.model });
    if (query.excludeDeleted) qb.andWhere('t.deleted_at IS NULL');
    if (query.q) {
      // '!' escapes LIKE's wildcards the same way on MySQL and SQLite (a backslash literal differs between them).
      const literal = query.q.replace(/[!%_]/g, (char) => `!${char}`);
      qb.andWhere(`(t.task_id = :q OR t.task_id LIKE :prefix ESCAPE '!' OR LOWER(t.prompt) LIKE :contains ESCAPE '!')`, {
        q: query.q,
        prefix: `${literal}%`,
        contains: `%${literal.toLowerCase()}%`,
      });
    }
    const [column, direction] = TASK_SORTS[query.sort ?? '-created_at'];
    qb.orderBy(column, direction);
    if (column !== 't.id') qb.addOrderBy('t.id', direction === 'ASC' && column === 't.created_at' ? 'ASC' : 'DESC');
    const [data, total] = await qb
      .skip((query.page - 1) * query.pageSize)
      .take(query.pageSize)
      .getManyAndCount();
    return { data, total };
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

  /** How many tasks findStuck would list (without its limit), and when the oldest of them was created. */
  async stuckSummary(now: number, olderThan: number): Promise<{ count: number; oldestCreatedAt: number | null }> {
    const row = await this.tasks
      .createQueryBuilder('t')
      .select('COUNT(*)', 'count')
      .addSelect('MIN(t.created_at)', 'oldest')
      .where('(t.status IN (:...pollable) AND t.next_poll_at < :due) OR (t.status = :submitting AND t.created_at < :due)', {
        pollable: POLLABLE_STATUSES,
        submitting: 'SUBMITTING',
        due: now - olderThan,
      })
      .getRawOne<{ count: string | number; oldest: string | number | null }>();
    return {
      count: Number(row?.count ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    };
  }

  /** Tasks created since `fromMs` per time bucket (`bucketMs` long) and current status (the dashboard's chart). */
  async countByBucketAndStatus(fromMs: number, bucketMs: number): Promise<Array<{ bucket: number; status: string; count: number }>> {
    // `x - x % size` floors to a bucket on MySQL and SQLite alike (times are positive).
    const rows: Array<Record<string, string | number>> = await this.tasks.manager.query(
      'SELECT (created_at - (created_at % ?)) AS bucket, status, COUNT(*) AS n FROM tasks WHERE created_at >= ? GROUP BY bucket, status',
      [bucketMs, fromMs],
    );
    return rows.map((row) => ({ bucket: Number(row.bucket), status: String(row.status), count: Number(row.n) }));
  }

  /** Tasks created since `fromMs` per channel (or model) and current status. */
  async countByStatusPer(
    column: 'channel_id' | 'model',
    fromMs: number,
  ): Promise<Array<{ key: string | number | null; status: string; count: number }>> {
    const rows: Array<Record<string, string | number | null>> = await this.tasks.manager.query(
      `SELECT ${column} AS k, status, COUNT(*) AS n FROM tasks WHERE created_at >= ? GROUP BY ${column}, status`,
      [fromMs],
    );
    return rows.map((row) => ({ key: row.k, status: String(row.status), count: Number(row.n) }));
  }

  /**
   * Per channel, over the tasks created since `fromMs`: what customers paid for them (their charges
   * that stand: accepted and not failed, so not refunded), and what the providers reported of their
   * own cost, summed per unit (with how many tasks reported it).
   */
  async chargedAndProviderUsageByChannel(fromMs: number): Promise<{
    charged: Map<number | null, number>;
    usage: Array<{ channelId: number | null; unit: string; amount: number; tasks: number }>;
  }> {
    const manager = this.tasks.manager;
    const unit = jsonFieldSql(manager, 'provider_usage', 'unit', 'text');
    const amount = jsonFieldSql(manager, 'provider_usage', 'amount', 'number');
    const [charged, usage]: Array<Array<Record<string, string | number | null>>> = await Promise.all([
      manager.query(
        `SELECT channel_id AS k, SUM(quota) AS q FROM tasks WHERE created_at >= ? AND status IN (${CHARGED_STATUSES.map(() => '?').join(', ')}) GROUP BY channel_id`,
        [fromMs, ...CHARGED_STATUSES],
      ),
      manager.query(
        `SELECT channel_id AS k, ${unit} AS u, SUM(${amount}) AS a, COUNT(*) AS n FROM tasks ` +
          `WHERE created_at >= ? AND provider_usage IS NOT NULL GROUP BY channel_id, ${unit}`,
        [fromMs],
      ),
    ]);
    const channelOf = (key: string | number | null) => (key === null ? null : Number(key));
    return {
      charged: new Map(charged.map((row) => [channelOf(row.k), Number(row.q ?? 0)])),
      usage: usage
        .filter((row) => typeof row.u === 'string' && row.u !== '')
        .map((row) => ({ channelId: channelOf(row.k), unit: String(row.u), amount: Number(row.a ?? 0), tasks: Number(row.n) })),
    };
  }

  /** One page of a client's visible tasks in id order, for cursor paging (`afterId` is exclusive). */
  listOwnedPage(userId: number, options: { afterId?: number; limit: number; order: 'asc' | 'desc' }): Promise<TaskEntity[]> {
    const qb = this.tasks
      .createQueryBuilder('t')
      .where('t.user_id = :userId', { userId })
      .andWhere('t.deleted_at IS NULL')
      .andWhere('t.status NOT IN (:...hidden)', { hidden: ['REJECTED', 'SUBMITTING'] });
    if (options.afterId !== undefined)
      qb.andWhere(options.order === 'desc' ? 't.id < :afterId' : 't.id > :afterId', { afterId: options.afterId });
    return qb
      .orderBy('t.id', options.order === 'desc' ? 'DESC' : 'ASC')
      .take(options.limit)
      .getMany();
  }

  /** The models a user has ever submitted, sorted. */
  async modelsUsedBy(userId: number): Promise<string[]> {
    const rows = await this.tasks
      .createQueryBuilder('t')
      .select('DISTINCT t.model', 'model')
      .where('t.user_id = :userId', { userId })
      .getRawMany<{ model: string }>();
    return rows.map((row) => row.model).sort();
  }

  /** Task id -> failure reason, for those of `taskIds` the user owns. */
  async failReasonsOf(userId: number, taskIds: string[]): Promise<Map<string, string | null>> {
    if (taskIds.length === 0) return new Map();
    const tasks = await this.tasks.find({ select: { taskId: true, failReason: true }, where: { taskId: In(taskIds), userId } });
    return new Map(tasks.map((task) => [task.taskId, task.failReason]));
  }
}
