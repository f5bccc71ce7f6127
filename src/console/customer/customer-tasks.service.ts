import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, In, IsNull, Repository } from 'typeorm';
import { toUnixSeconds } from '../../common/clock';
import { TaskEntity } from '../../tasks/task.entity';
import { TaskRepository } from '../../tasks/task.repository';
import { TaskStatus, toFlatStatus } from '../../tasks/task-status';
import type { FlatStatusFilter } from './customer-query.dto';

/** What a customer sees of a task: states as in the flat API, never channels or upstream ids. */
export const toCustomerTaskView = (task: TaskEntity) => ({
  task_id: task.taskId,
  model: task.model,
  action: task.action,
  status: toFlatStatus(task.status),
  progress: task.progress,
  quota: task.quota,
  fail_reason: task.status === 'FAILURE' ? task.failReason : null,
  size: task.outputSize,
  has_video: task.status === 'SUCCESS',
  created_at: toUnixSeconds(task.createdAt),
  completed_at: task.status === 'SUCCESS' ? toUnixSeconds(task.finishTime) : null,
  finished_at: task.finishTime ? toUnixSeconds(task.finishTime) : null,
});

/** Tasks a client can see (the flat API hides SUBMITTING and REJECTED ones). */
const VISIBLE: Record<FlatStatusFilter, TaskStatus[]> = {
  queued: ['NOT_START', 'QUEUED'],
  in_progress: ['IN_PROGRESS'],
  completed: ['SUCCESS'],
  failed: ['FAILURE'],
};

@Injectable()
export class CustomerTasksService {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly taskRepository: TaskRepository,
  ) {}

  async list(userId: number, query: { status?: FlatStatusFilter; model?: string; page: number; pageSize: number }) {
    const where: FindOptionsWhere<TaskEntity> = {
      userId,
      deletedAt: IsNull(),
      status: In(query.status ? VISIBLE[query.status] : Object.values(VISIBLE).flat()),
    };
    if (query.model) where.model = query.model;
    const [data, total] = await this.tasks.findAndCount({ where, order: { id: 'DESC' }, skip: (query.page - 1) * query.pageSize, take: query.pageSize });
    return { data: data.map(toCustomerTaskView), total };
  }

  /** The caller's own visible task; 404 for anyone else's. */
  get(userId: number, taskId: string): Promise<TaskEntity> {
    return this.taskRepository.findOwned(userId, taskId);
  }

  /** Models the customer has used, for the tasks filter. */
  async usedModels(userId: number): Promise<string[]> {
    const rows = await this.tasks.createQueryBuilder('t').select('DISTINCT t.model', 'model').where('t.user_id = :userId', { userId }).getRawMany<{ model: string }>();
    return rows.map((row) => row.model).sort();
  }
}
