import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { changedRows } from '../database/lean-writes';
import { TransactionRunner } from '../database/transaction-runner';
import { claimLease } from '../jobs/lease-claim';
import { endsForCustomer, TaskEndHooks } from '../tasks/task-end-hooks';
import type { RetentionHold } from '../tasks/repositories/task-sweep.repository';
import { WebhookOutboxEntity } from './webhook-outbox.entity';

const INSERT_END_SQL = 'INSERT INTO webhook_outbox (task_row_id, due_at) VALUES (?, ?)';

/**
 * The outbox of task ends (`webhook_outbox`): the terminal move (SUCCESS, FAILURE) inserts the
 * entry in its own transaction, so no crash can lose or invent an end; the publisher claims due
 * entries with a lease and deletes them in the transaction that writes their events.
 */
@Injectable()
export class WebhookOutboxRepository {
  constructor(
    @InjectRepository(WebhookOutboxEntity) private readonly outbox: Repository<WebhookOutboxEntity>,
    private readonly transactions: TransactionRunner,
    ends: TaskEndHooks,
  ) {
    ends.recordWithEnd(async (manager, end) => {
      // A provider's done whose video is still to be stored and settled is no completion yet: its settlement publishes it.
      if (!endsForCustomer(end)) return;
      // A failure replacing a SUCCESS not yet published: its one entry now publishes the failure.
      if (end.afterSuccess) await manager.delete(WebhookOutboxEntity, { taskRowId: end.task.id });
      await this.recordEnd(manager, end.task.id, end.at);
    });
  }

  /** Inside the terminal move's transaction: the task's end is due to be published from `now`. */
  async recordEnd(manager: EntityManager, taskRowId: number, now: number): Promise<void> {
    await changedRows(manager, INSERT_END_SQL, [taskRowId, now]);
  }

  /** Claims up to `limit` due ends for `owner` until `leaseUntil` (a crashed owner's come back when it runs out). */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookOutboxEntity[]> {
    const claimed = await claimLease(this.transactions, {
      table: 'webhook_outbox',
      key: 'task_row_id',
      claimable: { sql: 'due_at <= ?', params: [now] },
      order: 'due_at',
      limit,
      lease: { sql: 'lease_owner = ?, due_at = ?', params: [owner, leaseUntil] },
    });
    if (claimed.length === 0) return [];
    return this.outbox.find({ where: { leaseOwner: owner, dueAt: leaseUntil } });
  }

  /** Inside the caller's transaction: the ends are published. Returns how many `owner` still held (fewer: a lease ran out). */
  async markPublished(manager: EntityManager, taskRowIds: number[], owner: string): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(WebhookOutboxEntity)
      .where('task_row_id IN (:...taskRowIds)', { taskRowIds })
      .andWhere('lease_owner = :owner', { owner })
      .execute();
    return result.affected ?? 0;
  }

  /** TASK_RETENTION waits while the task's end is not published (its events not yet written): SQL on the task's row id column. */
  readonly unpublishedEnd: RetentionHold = (task) => `EXISTS (SELECT 1 FROM webhook_outbox wo WHERE wo.task_row_id = ${task.id})`;

  /** Inside the caller's transaction (a task deleted by TASK_RETENTION): its end, if still unpublished. */
  async deleteForTask(manager: EntityManager, taskRowId: number): Promise<number> {
    return (await manager.delete(WebhookOutboxEntity, { taskRowId })).affected ?? 0;
  }

  /** Shutting down: claimed ends not published are due again at once. */
  async handBack(taskRowIds: number[], owner: string, now: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(WebhookOutboxEntity)
        .set({ leaseOwner: null, dueAt: now })
        .where('task_row_id IN (:...taskRowIds)', { taskRowIds })
        .andWhere('lease_owner = :owner', { owner })
        .execute(),
    );
  }

  /** The oldest due end not claimed (epoch ms), or null: the job-lag gauge. */
  async oldestDueAt(now: number): Promise<number | null> {
    const row: { due: number | string | null } | undefined = await this.outbox
      .createQueryBuilder('o')
      .select('MIN(o.due_at)', 'due')
      .where('o.due_at <= :now', { now })
      .getRawOne();
    return row?.due === null || row?.due === undefined ? null : Number(row.due);
  }
}
