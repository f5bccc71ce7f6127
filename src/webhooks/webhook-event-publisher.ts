import { Injectable } from '@nestjs/common';
import { JobContext } from '../jobs/job-context';
import { RegisteredJob } from '../jobs/registered-job';
import { TaskEndHooks } from '../tasks/task-end-hooks';
import type { TaskEntity } from '../tasks/task.entity';
import { WebhookDeliveryScheduler } from './webhook-delivery-scheduler';
import { WebhookEventBuilder } from './webhook-event-builder';
import { WebhookOutboxRepository } from './webhook-outbox.repository';

/** Task ends published in one transaction (three inserts and one update, however many). */
const ENDS_PER_BATCH = 200;
/** A claimed batch belongs to this instance this long; a crashed instance's ends come back after it. */
const LEASE_MS = 60_000;

/** A claimed batch of task ends: the lease's holder and the tasks. */
interface ClaimedEnds {
  owner: string;
  tasks: TaskEntity[];
}

/**
 * Turns task ends into `video.completed` / `video.failed` events, as a leased job on any instance:
 * claims the ends the terminal moves wrote to `webhook_outbox`, and in one transaction writes each
 * end's event with a first attempt per subscribed endpoint of its account (and one to the task's
 * `callback_url`, if it has one), and deletes the entries. So a task's end costs the task sync nothing more than its own UPDATE, and a crash
 * either side of the commit neither loses nor duplicates an event. An endpoint created after the
 * task ended does not get it. The events are built by WebhookEventBuilder and queued by WebhookDeliveryScheduler.
 */
@Injectable()
export class WebhookEventPublisher extends RegisteredJob<ClaimedEnds> {
  constructor(
    private readonly outbox: WebhookOutboxRepository,
    taskEnds: TaskEndHooks,
    private readonly builder: WebhookEventBuilder,
    private readonly scheduler: WebhookDeliveryScheduler,
    context: JobContext,
  ) {
    super(context, { name: 'webhook-events', batchSize: 1, maxItemsPerRound: 25, concurrency: 1 });
    // A task ended here: publish soon instead of at the next tick.
    taskEnds.onEnd(() => this.runSoon());
  }

  /** Follows the delivery job's interval (0: rounds by hand, as the tests run them). */
  get intervalMs(): number {
    return this.config.webhookDeliveryIntervalMs;
  }

  /** One round by hand: publishes every end due now. Returns how many batches were claimed. */
  publishDueEvents(): Promise<number> {
    return this.loop.runRound();
  }

  async claim(): Promise<ClaimedEnds[]> {
    const now = this.clock.now();
    const owner = this.claimOwner('e');
    const claimed = await this.outbox.claimDue(owner, now, now + LEASE_MS, ENDS_PER_BATCH);
    if (!claimed.length) return [];
    return [{ owner, tasks: await this.builder.endsOf(claimed.map((entry) => entry.taskRowId)) }];
  }

  async handle({ owner, tasks: ends }: ClaimedEnds): Promise<string> {
    return this.scheduler.schedule(ends, owner, await this.builder.build(ends));
  }

  handBack({ owner, tasks: ends }: ClaimedEnds): Promise<void> {
    return this.outbox.handBack(
      ends.map((task) => task.id),
      owner,
      this.clock.now(),
    );
  }

  describe({ tasks: ends }: ClaimedEnds): string {
    return `${ends.length} task ends (${ends[0]?.taskId ?? ''}...)`;
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.outbox.oldestDueAt(now);
  }
}
