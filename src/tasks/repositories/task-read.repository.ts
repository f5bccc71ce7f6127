import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { LeanReads } from '../../database/lean-reads';
import { TaskEntity } from '../task.entity';
import { TaskEventEntity } from '../task-event.entity';
import type { TaskListQuery, TaskSort } from '../task-list-query';

/** One attempt's report of its provider's own cost, as `providerUsageOf` reads it. */
export interface AttemptUsageRow {
  attempt: number;
  channelId: number;
  unit: string;
  amount: number;
  reportedAt: number;
}

/** The column (and direction) each list order sorts by. */
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

/** The reads of tasks: one task (by its id, its owner's), a page of a list, its timeline and provider usage (TaskQueries offers them other modules). */
@Injectable()
export class TaskReadRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly reads: LeanReads,
  ) {}

  findByTaskId(taskId: string): Promise<TaskEntity | null> {
    return this.tasks.findOne({ where: { taskId } });
  }

  /** The tasks behind rows other modules keep per task (archives, outbox entries), by row id. */
  findByIds(ids: number[]): Promise<TaskEntity[]> {
    return ids.length ? this.tasks.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  /** A client's own task unless its owner deleted it (the poll's hot path: one fixed statement). */
  findOwnedNotDeleted(userId: number, taskId: string): Promise<TaskEntity | null> {
    return this.reads.findOne(TaskEntity, 'task_id = ? AND user_id = ? AND deleted_at IS NULL', [taskId, userId]);
  }

  /** Whether any task (of any account, deleted or not) names the public model `model`. */
  hasTaskOfModel(model: string): Promise<boolean> {
    return this.tasks.exists({ where: { model }, withDeleted: true });
  }

  /** A task's recorded state changes, oldest first. */
  eventsOf(id: number): Promise<TaskEventEntity[]> {
    return this.tasks.manager.find(TaskEventEntity, { where: { taskRowId: id }, order: { id: 'ASC' } });
  }

  /** What each attempt of a task reported of its provider's cost, first attempt first. */
  async providerUsageOf(id: number): Promise<AttemptUsageRow[]> {
    const rows: Array<Record<string, string | number>> = await this.tasks.manager.query(
      'SELECT attempt, channel_id, unit, amount, reported_at FROM task_provider_usage WHERE task_row_id = ? ORDER BY attempt, reported_at, id',
      [id],
    );
    return rows.map((row) => ({
      attempt: Number(row.attempt),
      channelId: Number(row.channel_id),
      unit: String(row.unit),
      amount: Number(row.amount),
      reportedAt: Number(row.reported_at),
    }));
  }

  /** One page of tasks matching the filter and the search, in the asked order (newest first by default), and how many match. */
  async page(query: TaskListQuery): Promise<{ data: TaskEntity[]; total: number }> {
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

  /** One page of a client's visible tasks (not deleted, not REJECTED or SUBMITTING) in id order; `afterId` is exclusive. */
  listVisiblePage(userId: number, options: { afterId?: number; limit: number; order: 'asc' | 'desc' }): Promise<TaskEntity[]> {
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
