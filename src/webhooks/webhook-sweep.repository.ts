import { Injectable } from '@nestjs/common';
import { EntityManager, In, LessThan, Not } from 'typeorm';
import { deleteExpiredBatch } from '../database/delete-expired-batch';
import { TransactionRunner } from '../database/transaction-runner';
import type { RetentionHold } from '../tasks/repositories/task-sweep.repository';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEventEntity } from './webhook-event.entity';

/** Deleting old events and attempts: the housekeeping's sweeps and a task's removal by TASK_RETENTION (with its hold while an attempt is pending). */
@Injectable()
export class WebhookSweepRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Housekeeping: deletes up to `limit` settled attempts (not pending) made before `before`; returns how many. */
  deleteDeliveriesBefore(before: number, limit: number): Promise<number> {
    return deleteExpiredBatch(this.transactions, WebhookDeliveryEntity, { createdAt: LessThan(before), state: Not('pending') }, limit);
  }

  /** Housekeeping: deletes up to `limit` events made before `before` that no attempt refers to any more; returns how many. */
  async deleteUnreferencedEventsBefore(before: number, limit: number): Promise<number> {
    return this.transactions.runStatement(async (manager) => {
      const picked: Array<{ id: number | string }> = await manager
        .createQueryBuilder(WebhookEventEntity, 'ev')
        .select('ev.id', 'id')
        .where('ev.created_at < :before', { before })
        .andWhere('NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id)')
        .orderBy('ev.id')
        .limit(limit)
        .getRawMany();
      if (picked.length === 0) return 0;
      const ids = picked.map((row) => Number(row.id));
      const result = await manager
        .createQueryBuilder()
        .delete()
        .from(WebhookEventEntity)
        .where('id IN (:...ids)', { ids })
        .andWhere('NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)')
        .execute();
      return result.affected ?? ids.length;
    });
  }

  /**
   * TASK_RETENTION waits while an attempt for one of the task's events is pending (first tries and
   * retries alike, to endpoints and to its callback URL): SQL on the task's `task_id` column.
   */
  readonly pendingAttempt: RetentionHold = (task) =>
    `EXISTS (SELECT 1 FROM webhook_events we JOIN webhook_deliveries wd ON wd.event_id = we.id WHERE we.task_id = ${task.taskId} AND wd.state = 'pending')`;

  /**
   * Inside the caller's transaction (a task deleted by TASK_RETENTION): the task's events and every
   * attempt to deliver them. Returns the rows deleted.
   */
  async deleteForTask(manager: EntityManager, taskId: string): Promise<number> {
    const events = await manager.find(WebhookEventEntity, { select: { id: true }, where: { taskId } });
    if (events.length === 0) return 0;
    const eventIds = events.map((event) => event.id);
    const attempts = await manager.delete(WebhookDeliveryEntity, { eventId: In(eventIds) });
    const removed = await manager.delete(WebhookEventEntity, { id: In(eventIds) });
    return (attempts.affected ?? 0) + (removed.affected ?? 0);
  }
}
