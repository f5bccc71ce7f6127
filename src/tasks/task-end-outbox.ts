import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TaskEntity } from './task.entity';

/** Something that must be written together with a task's move to SUCCESS or FAILURE (an outbox row). */
export interface TaskEndWriter {
  /** Runs inside the transaction of the terminal move, with the task as it is after the move. */
  recordEnd(manager: EntityManager, task: TaskEntity): Promise<void>;
  /** After that transaction committed: e.g. wake a job up early. Must not throw. */
  afterCommit?(task: TaskEntity): void;
}

/**
 * Where features that react to a task's end (webhooks) plug into the task's terminal move without
 * the tasks module knowing them: they register a writer at start, and the transitions call every
 * writer in the same transaction as the compare-and-set, so no crash can lose or invent a record.
 */
@Injectable()
export class TaskEndOutbox {
  private readonly writers: TaskEndWriter[] = [];

  register(writer: TaskEndWriter): void {
    this.writers.push(writer);
  }

  /** True when a terminal move has something to write besides the task. */
  get hasWriters(): boolean {
    return this.writers.length > 0;
  }

  async recordEnd(manager: EntityManager, task: TaskEntity): Promise<void> {
    for (const writer of this.writers) await writer.recordEnd(manager, task);
  }

  afterCommit(task: TaskEntity): void {
    for (const writer of this.writers) writer.afterCommit?.(task);
  }
}
