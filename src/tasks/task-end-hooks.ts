import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TaskEntity } from './task.entity';

/** A task's end as the modules reacting to it see it. */
export interface TaskEnd {
  task: TaskEntity;
  status: 'SUCCESS' | 'FAILURE';
  at: number;
  /** A FAILURE that replaces the task's SUCCESS (its video never came): that end's rows may exist already. */
  afterSuccess?: boolean;
  /**
   * Of a SUCCESS: `provider` when the provider is done but the video is still to be stored and
   * settled; `settled` when that settlement follows; `done` when both happen at once (no video store).
   * The customer's completion (and its events) is `settled` or `done`.
   */
  step?: 'provider' | 'settled' | 'done';
}

/** Whether an end is the customer's: a failure, or a SUCCESS once settled. */
export const endsForCustomer = (end: TaskEnd): boolean => end.status === 'FAILURE' || end.step !== 'provider';

/** Writes a module's own row for an end, inside the transaction of the terminal move (so it commits with it or not at all). */
export type TaskEndRecorder = (manager: EntityManager, end: TaskEnd) => Promise<void>;

/** Told after a task's end committed here (e.g. to wake the job that handles it). Must not throw. */
export type TaskEndListener = (task: TaskEntity) => void;

/**
 * Where modules that react to task ends plug in, so the tasks module never knows them: the video
 * store records the archive due, the webhooks their outbox entry, each in its own table, in the
 * same transaction as the terminal move (SUCCESS, FAILURE): no crash can lose or invent an end.
 */
@Injectable()
export class TaskEndHooks {
  private readonly recorders: TaskEndRecorder[] = [];
  private readonly listeners: TaskEndListener[] = [];
  private storedBeforeSettling = false;

  /** A video store is kept (the storage module says so): a SUCCESS is settled once its video is stored, not when the provider is done. */
  settleAfterStoring(): void {
    this.storedBeforeSettling = true;
  }

  get settlesAfterStoring(): boolean {
    return this.storedBeforeSettling;
  }

  recordWithEnd(recorder: TaskEndRecorder): void {
    this.recorders.push(recorder);
  }

  onEnd(listener: TaskEndListener): void {
    this.listeners.push(listener);
  }

  /** Inside the terminal move's transaction (called by the transitions). */
  async record(manager: EntityManager, end: TaskEnd): Promise<void> {
    for (const recorder of this.recorders) await recorder(manager, end);
  }

  /** A terminal move committed (called by the transitions). */
  ended(task: TaskEntity): void {
    for (const listener of this.listeners) listener(task);
  }
}
