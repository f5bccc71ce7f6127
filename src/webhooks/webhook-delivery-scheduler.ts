import { Injectable } from '@nestjs/common';
import { Clock } from '../common/runtime/clock';
import { TransactionRunner } from '../database/transaction-runner';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskCallbackRepository } from './task-callback.repository';
import type { BuiltEvents } from './webhook-event-builder';
import { WebhookEnqueueRepository } from './webhook-enqueue.repository';
import { WebhookMetrics } from './webhook-metrics.service';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { WebhookWakeUp } from './webhook-wake-up';

class LeaseLostError extends Error {
  constructor(owned: number, of: number) {
    super(`${of - owned} of ${of} task ends were taken over before they were published; another instance publishes them`);
  }
}

/**
 * A batch of task ends' events put in the delivery queue: in one transaction each event with its
 * first attempts, the used callback rows deleted and the outbox entries marked published (while
 * `owner` still holds them), then the delivery job woken.
 */
@Injectable()
export class WebhookDeliveryScheduler {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly deliveries: WebhookEnqueueRepository,
    private readonly callbacks: TaskCallbackRepository,
    private readonly outbox: WebhookOutboxRepository,
    private readonly metrics: WebhookMetrics,
    private readonly deliveryWakeUp: WebhookWakeUp,
    private readonly clock: Clock,
  ) {}

  /** Returns the job's outcome of the batch: `published`, or `no_endpoints` when no end had anyone to go to. */
  async schedule(ends: TaskEntity[], owner: string, { events, callbackTaskIds }: BuiltEvents): Promise<string> {
    await this.transactions.run(async (manager) => {
      await this.deliveries.enqueueEvents(manager, events, this.clock.now());
      await this.callbacks.delete(manager, callbackTaskIds);
      const owned = await this.outbox.markPublished(
        manager,
        ends.map((task) => task.id),
        owner,
      );
      if (owned !== ends.length) throw new LeaseLostError(owned, ends.length);
    });
    for (const event of events) this.metrics.events.inc({ type: event.type });
    if (events.length) this.deliveryWakeUp.ring();
    return events.length ? 'published' : 'no_endpoints';
  }
}
