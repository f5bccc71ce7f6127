import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { claimDueTaskRows, type TaskRowLease } from './task-row-lease';
import { TaskEntity } from './task.entity';

/** A publisher's claim on an end not yet published. */
const END_EVENT_LEASE: TaskRowLease = { due: { column: 'end_event_due_at', property: 'endEventDueAt' }, owner: { property: 'endEventOwner' } };

/** Told after a task's end committed here (e.g. to wake the job that publishes it). Must not throw. */
export type TaskEndListener = (task: TaskEntity) => void;

/**
 * The outbox of task ends, kept on the task row: the terminal move (SUCCESS, FAILURE) sets
 * `end_event_due_at` in the same UPDATE as the status, so no crash can lose or invent an end, and
 * the task sync pays no extra statement for it. Features that react to ends (webhooks) claim due
 * ends here with a lease and mark them published in the transaction that writes their own rows;
 * the tasks module never knows them.
 */
@Injectable()
export class TaskEndOutbox {
  private readonly listeners: TaskEndListener[] = [];

  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  onEnd(listener: TaskEndListener): void {
    this.listeners.push(listener);
  }

  /** A terminal move committed (called by the transitions). */
  ended(task: TaskEntity): void {
    for (const listener of this.listeners) listener(task);
  }

  /** Claims up to `limit` due ends for `owner` until `leaseUntil` (a crashed owner's come back when it runs out). */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<TaskEntity[]> {
    return claimDueTaskRows(this.transactions, this.tasks, END_EVENT_LEASE, { owner, now, leaseUntil, limit });
  }


  /** Inside the caller's transaction: the ends are published. Returns how many `owner` still held (fewer: a lease ran out). */
  async markPublished(manager: EntityManager, ids: number[], owner: string): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .update(TaskEntity)
      .set({ endEventDueAt: null, endEventOwner: null })
      .where('id IN (:...ids)', { ids })
      .andWhere('end_event_owner = :owner AND end_event_due_at IS NOT NULL', { owner })
      .execute();
    return result.affected ?? 0;
  }

  /** Shutting down: claimed ends not published are due again at once. */
  async handBack(ids: number[], owner: string, now: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ endEventOwner: null, endEventDueAt: now })
        .where('id IN (:...ids)', { ids })
        .andWhere('end_event_owner = :owner AND end_event_due_at IS NOT NULL', { owner })
        .execute(),
    );
  }

  /** The oldest due end not claimed (epoch ms), or null: the job-lag gauge. */
  async oldestDueAt(now: number): Promise<number | null> {
    const row: { due: number | string | null } | undefined = await this.tasks
      .createQueryBuilder('t')
      .select('MIN(t.end_event_due_at)', 'due')
      .where('t.end_event_due_at <= :now', { now })
      .getRawOne();
    return row?.due === null || row?.due === undefined ? null : Number(row.due);
  }
}
