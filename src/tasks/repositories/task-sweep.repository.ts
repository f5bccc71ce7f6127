import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, LessThan, Not, Repository } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { claimLease } from '../../jobs/lease-claim';
import { TaskEntity } from '../task.entity';
import { TaskEventEntity } from '../task-event.entity';
import { TERMINAL_STATUSES } from '../task-status';

/**
 * A reason another module keeps an ended task from TASK_RETENTION: an SQL condition on the task's
 * row, given its qualified `id` and `task_id` columns (e.g. an EXISTS on that module's own table).
 */
export type RetentionHold = (task: { id: string; taskId: string }) => string;

/** What removes old task data: TASK_RETENTION's claims and deletes, and the housekeeping of expired Idempotency-Keys. */
@Injectable()
export class TaskSweepRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * TASK_RETENTION: claims up to `limit` tasks that ended before `endedBefore` for `owner` until
   * `leaseUntil`, and hides them from their owner at once (`deleted_at`), so nobody sees a task whose
   * video is being removed. A crashed owner's claim runs out and the next claim finishes the job.
   * A task that any of `holds` applies to is passed over (not claimed, still visible), in the same
   * statement, so it neither fills the batch nor is deleted under a hold that began meanwhile.
   */
  async claimEndedBefore(
    owner: string,
    endedBefore: number,
    now: number,
    leaseUntil: number,
    limit: number,
    holds: RetentionHold[] = [],
  ): Promise<TaskEntity[]> {
    const held = holds.map((hold) => ` AND NOT ${hold({ id: 'tasks.id', taskId: 'tasks.task_id' })}`).join('');
    const claimed = await claimLease(this.transactions, {
      table: 'tasks',
      claimable: {
        sql: `status IN (${TERMINAL_STATUSES.map(() => '?').join(', ')}) AND finish_time < ? AND (lease_until IS NULL OR lease_until <= ?)${held}`,
        params: [...TERMINAL_STATUSES, endedBefore, now],
      },
      order: 'finish_time',
      limit,
      lease: {
        sql: 'lease_owner = ?, lease_until = ?, deleted_at = COALESCE(deleted_at, ?)',
        params: [owner, leaseUntil, Math.floor(now)],
      },
    });
    if (claimed.length === 0) return [];
    return this.tasks.find({ where: { leaseOwner: owner, leaseUntil, status: In(TERMINAL_STATUSES) } });
  }

  /**
   * Inside the caller's transaction: deletes a task claimed by `owner` for TASK_RETENTION and its
   * timeline. False (nothing deleted) when the claim was lost meanwhile.
   */
  async deleteClaimed(manager: EntityManager, id: number, owner: string): Promise<boolean> {
    const removed = await manager.delete(TaskEntity, { id, leaseOwner: owner });
    if (!removed.affected) return false;
    await manager.delete(TaskEventEntity, { taskRowId: id });
    await manager.query('DELETE FROM task_provider_usage WHERE task_row_id = ?', [id]);
    return true;
  }

  /** Gives a retention claim back (shutting down): the task is due again at once, still hidden. */
  async releaseRetentionClaim(id: number, owner: string): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager.update(TaskEntity, { id, leaseOwner: owner }, { leaseOwner: null, leaseUntil: null }),
    );
  }

  /**
   * Housekeeping: frees up to `limit` Idempotency-Keys of tasks created before `before` (past the
   * window in which a retry returns the same task). Returns how many were freed.
   */
  async clearIdempotencyKeysBefore(before: number, limit: number): Promise<number> {
    return this.transactions.runStatement(async (manager) => {
      const expired = { idempotencyKey: Not(IsNull()), createdAt: LessThan(before) };
      const picked = await manager.find(TaskEntity, { select: { id: true }, where: expired, order: { id: 'ASC' }, take: limit });
      if (picked.length === 0) return 0;
      const result = await manager.update(TaskEntity, { ...expired, id: In(picked.map((task) => task.id)) }, { idempotencyKey: null });
      return result.affected ?? picked.length;
    });
  }
}
