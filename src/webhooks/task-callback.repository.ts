import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { TaskCallbackEntity } from './task-callback.entity';

/** Tasks' callback URLs (`task_callbacks`): written with the task's record, removed when its end is published. */
@Injectable()
export class TaskCallbackRepository {
  constructor(@InjectRepository(TaskCallbackEntity) private readonly callbacks: Repository<TaskCallbackEntity>) {}

  /** Inside the transaction that records the task. */
  async insert(manager: EntityManager, row: TaskCallbackEntity): Promise<void> {
    await manager.insert(TaskCallbackEntity, row);
  }

  /** The callback URL of each of these tasks that has one (by task row id). */
  async urlsOf(taskRowIds: number[]): Promise<Map<number, string>> {
    if (taskRowIds.length === 0) return new Map();
    const rows = await this.callbacks.find({ where: { taskRowId: In(taskRowIds) } });
    return new Map(rows.map((row) => [row.taskRowId, row.url]));
  }

  /** Inside the transaction that publishes the tasks' ends: their attempts carry the URL from now on. */
  async delete(manager: EntityManager, taskRowIds: number[]): Promise<void> {
    if (taskRowIds.length) await manager.delete(TaskCallbackEntity, { taskRowId: In(taskRowIds) });
  }
}
