import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { SignedLinksService } from '../storage/signed-links.service';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskEndOutbox, TaskEndWriter } from '../tasks/task-end-outbox';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { eventTypeOf, taskEventData } from './webhook-event.view';
import { WebhookMetrics } from './webhook-metrics.service';
import { WebhookWakeUp } from './webhook-wake-up';

/**
 * Writes `video.completed` / `video.failed` and one first attempt per subscribed endpoint of the
 * task's account, in the transaction of the task's terminal move (whichever surface submitted it).
 * An account without endpoints costs one indexed read and writes nothing.
 */
@Injectable()
export class WebhookOutboxWriter implements TaskEndWriter {
  /** Set when a task's end wrote attempts, so the commit rings the delivery job (an approximate hint: its tick is the guarantee). */
  private wrote = false;

  constructor(
    outbox: TaskEndOutbox,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly metrics: WebhookMetrics,
    private readonly wakeUp: WebhookWakeUp,
    private readonly clock: Clock,
    private readonly links: SignedLinksService,
  ) {
    outbox.register(this);
  }

  async recordEnd(manager: EntityManager, task: TaskEntity): Promise<void> {
    const type = eventTypeOf(task);
    const targets = await this.endpoints.subscribedIn(manager, task.userId, type);
    if (targets.length === 0) return;
    await this.deliveries.enqueueEvent(manager, { userId: task.userId, type, taskId: task.taskId, data: taskEventData(task, this.links) }, targets.map((endpoint) => endpoint.id), this.clock.now());
    this.metrics.events.inc({ type });
    this.wrote = true;
  }

  afterCommit(): void {
    // The delivery job is woken so the first attempt does not wait for its tick.
    if (!this.wrote) return;
    this.wrote = false;
    this.wakeUp.ring();
  }
}
