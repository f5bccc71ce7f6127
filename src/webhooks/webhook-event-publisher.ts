import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { INSTANCE_ID } from '../config/instance-id';
import { TransactionRunner } from '../database/transaction-runner';
import { JobRunner } from '../jobs/job-runner.service';
import type { LeasedJob } from '../jobs/leased-job';
import type { LeasedJobLoop } from '../jobs/leased-job-loop';
import { SignedLinksService } from '../storage/signed-links.service';
import { TaskEndHooks } from '../tasks/task-end-hooks';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskRepository } from '../tasks/task.repository';
import { TaskCallbackRepository } from './task-callback.repository';
import { NewEvent, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { eventTypeOf, taskEventData } from './webhook-event.view';
import { WebhookMetrics } from './webhook-metrics.service';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { WebhookWakeUp } from './webhook-wake-up';

/** Task ends published in one transaction (three inserts and one update, however many). */
const ENDS_PER_BATCH = 200;
/** A claimed batch belongs to this instance this long; a crashed instance's ends come back after it. */
const LEASE_MS = 60_000;
/** Wake-ups (a task ended here) are coalesced: a claim at most this often, never one per task. */
const WAKE_GAP_MS = 100;

class LeaseLostError extends Error {
  constructor(owned: number, of: number) {
    super(`${of - owned} of ${of} task ends were taken over before they were published; another instance publishes them`);
  }
}

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
 * task ended does not get it.
 */
@Injectable()
export class WebhookEventPublisher implements LeasedJob<ClaimedEnds> {
  readonly name = 'webhook-events';
  /** An item is a batch of task ends: the job claims one batch at a time. */
  readonly batchSize = 1;
  readonly maxItemsPerRound = 25;
  readonly concurrency = 1;
  private readonly loop: LeasedJobLoop<ClaimedEnds>;
  private claimCounter = 0;
  private wakeTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    private readonly outbox: WebhookOutboxRepository,
    private readonly tasks: TaskRepository,
    taskEnds: TaskEndHooks,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly callbacks: TaskCallbackRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly transactions: TransactionRunner,
    private readonly metrics: WebhookMetrics,
    private readonly deliveryWakeUp: WebhookWakeUp,
    private readonly links: SignedLinksService,
    private readonly clock: Clock,
    runner: JobRunner,
  ) {
    this.loop = runner.register(this);
    taskEnds.onEnd(() => this.wake());
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
    const owner = `${this.instanceId}#e${++this.claimCounter}`;
    const claimed = await this.outbox.claimDue(owner, now, now + LEASE_MS, ENDS_PER_BATCH);
    if (!claimed.length) return [];
    return [{ owner, tasks: await this.tasks.findByIds(claimed.map((entry) => entry.taskRowId)) }];
  }

  async handle({ owner, tasks: ends }: ClaimedEnds): Promise<string> {
    const userIds = [...new Set(ends.map((task) => task.userId))];
    const endpoints = await this.endpoints.enabledOf(userIds);
    const callbackUrls = await this.callbacks.urlsOf(ends.map((task) => task.id));
    const callbackRows = callbackUrls.size ? await this.endpoints.callbacksOf(userIds) : new Map<number, number>();
    const events: NewEvent[] = [];
    for (const task of ends) {
      const type = eventTypeOf(task);
      const endpointIds = endpoints
        .filter(
          (endpoint) =>
            endpoint.userId === task.userId && endpoint.events.includes(type) && endpoint.createdAt <= (task.finishTime ?? task.updatedAt),
        )
        .map((endpoint) => endpoint.id);
      // The task's own callback URL, signed with the account's callback secret (checked at submit).
      const callbackUrl = callbackUrls.get(task.id);
      const callbackRow = callbackRows.get(task.userId);
      const callbacks = callbackUrl !== undefined && callbackRow !== undefined ? [{ endpointId: callbackRow, url: callbackUrl }] : [];
      if (endpointIds.length || callbacks.length)
        events.push({ userId: task.userId, type, taskId: task.taskId, data: taskEventData(task, this.links), endpointIds, callbacks });
    }
    await this.transactions.run(async (manager) => {
      await this.deliveries.enqueueEvents(manager, events, this.clock.now());
      await this.callbacks.delete(manager, [...callbackUrls.keys()]);
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

  /** A task ended here: publish soon instead of at the next tick (coalesced; other instances find it at theirs). */
  private wake(): void {
    if (this.wakeTimer || this.loop.stopped || this.intervalMs <= 0) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      void this.loop.tick();
    }, WAKE_GAP_MS);
    this.wakeTimer.unref();
  }
}
