import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Caller } from '../auth/caller';
import type { TaskEntity } from './task.entity';

/** Writes a module's own row for a new task, inside the transaction that records it and holds its charge. */
export type SubmitFieldRecorder = (manager: EntityManager, task: TaskEntity) => Promise<void>;

/** Checks a submit field's value (a 400 naming it, before anything is charged); answers what to record with the task. */
export type SubmitFieldCheck = (value: unknown, caller: Caller) => Promise<SubmitFieldRecorder>;

/**
 * Submit fields every family takes and another module owns (`callback_url`: the webhooks), so the
 * tasks module never knows them: taken out of the body before the family's schema sees it, checked
 * before any charge, and recorded in the module's own table with the task's record.
 */
@Injectable()
export class TaskSubmitFields {
  private readonly checks = new Map<string, SubmitFieldCheck>();

  register(name: string, check: SubmitFieldCheck): void {
    this.checks.set(name, check);
  }

  /** The body without the registered fields, and what the present ones record with the task. */
  async take(body: Record<string, unknown>, caller: Caller): Promise<{ body: Record<string, unknown>; recorders: SubmitFieldRecorder[] }> {
    const rest = { ...body };
    const recorders: SubmitFieldRecorder[] = [];
    for (const [name, check] of this.checks) {
      if (!(name in rest)) continue;
      const value = rest[name];
      delete rest[name];
      recorders.push(await check(value, caller));
    }
    return { body: rest, recorders };
  }
}
