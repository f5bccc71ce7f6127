import { Inject, Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { TaskMetrics } from './task-metrics.service';
import { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { UpstreamError } from '../upstream/upstream-adapter';
import { FamilyRegistry } from '../families/family-registry.service';
import { INSTANCE_ID } from '../config/instance-id';
import { KeyedWorkPool } from './keyed-work-pool';
import { backoffDelay } from './poll-backoff';
import { PollReleaseBuffer } from './poll-release-buffer';
import { TaskEntity } from './task.entity';
import { TaskRepository } from './task.repository';
import { pollIntervalFor, SUBMIT_INTERRUPTED, TaskSubmitService } from './task-submit.service';
import { TaskTransitionsService } from './task-transitions.service';

const BATCH_SIZE = 500;
/** Upper bound of tasks one round takes on, so a round ends and the next sees fresh due times. */
const MAX_TASKS_PER_ROUND = 20_000;
/** Polls in flight at once on this instance, across all channels. */
const GLOBAL_CONCURRENCY = 128;
/** Per-channel in-flight polls when the channel sets no `max_concurrency`. */
const DEFAULT_CHANNEL_CONCURRENCY = 64;

/**
 * Follows tasks to their end. A round claims due tasks in batches with a lease in the database
 * (so any number of instances can run it), polls them concurrently within a global bound and each
 * channel's `max_concurrency`, and applies each outcome in one compare-and-set write that also
 * schedules the next poll and frees the lease. Transport trouble backs off with jitter and never
 * fails a task by itself; only `TASK_TIMEOUT_MS` does. One task's trouble never stops the batch.
 */
@Injectable()
export class TaskSyncService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TaskSync');
  private running: Promise<number> | null = null;
  private stopping = false;
  private claimCounter = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    private readonly tasks: TaskRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly submitter: TaskSubmitService,
    private readonly families: FamilyRegistry,
    private readonly channels: ChannelsService,
    private readonly scheduler: SchedulerRegistry,
    private readonly metrics: TaskMetrics,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.taskSyncIntervalMs <= 0) return;
    const timer = setInterval(() => void this.tick(), this.config.taskSyncIntervalMs);
    this.scheduler.addInterval('task-sync', timer);
  }

  /**
   * SIGTERM: stop claiming, let polls already in flight finish (each bounded by its HTTP timeout),
   * hand claimed tasks not yet polled back to the database, then let the process exit.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.scheduler.doesExist('interval', 'task-sync')) this.scheduler.deleteInterval('task-sync');
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopping) return;
    try {
      await this.syncDueTasks();
    } catch (error) {
      this.logger.error(`sync round failed: ${(error as Error)?.stack ?? error}`);
    }
  }

  /** One round: claim due work batch by batch and handle each task on its own. Returns how many were handled. */
  syncDueTasks(): Promise<number> {
    if (!this.running) this.running = this.runRound().finally(() => (this.running = null));
    return this.running;
  }

  private async runRound(): Promise<number> {
    const channels = new Map((await this.channels.list()).map((channel) => [channel.id, channel]));
    const releases = new PollReleaseBuffer(this.tasks, () => this.clock.now());
    // Quiet polls are written in batches; flush regularly so no lease is held longer than needed.
    const flusher = setInterval(() => void releases.flush().catch((error) => this.logger.error(`release flush failed: ${error}`)), 100);
    try {
      return await this.claimAndPoll(channels, releases);
    } finally {
      clearInterval(flusher);
      await releases.flush();
    }
  }

  private async claimAndPoll(channels: Map<number, ChannelEntity>, releases: PollReleaseBuffer): Promise<number> {
    const pool = new KeyedWorkPool(GLOBAL_CONCURRENCY, (channelId) => channelLimit(channels.get(channelId)), (error) =>
      this.logger.error(`task sync failed: ${(error as Error)?.stack ?? error}`),
    );
    let handled = 0;
    for (const task of await this.claim(['SUBMITTING'])) {
      pool.push(task.channelId ?? -1, () => this.settleInterrupted(task, channels));
      handled++;
    }
    while (!this.stopping && handled < MAX_TASKS_PER_ROUND) {
      // Keep about one batch queued locally; the rest stays claimable by other instances.
      await pool.whenBelow(BATCH_SIZE);
      const batch = await this.claim();
      for (const task of batch) pool.push(task.channelId ?? -1, () => this.pollOne(task, channels.get(task.channelId ?? -1), releases));
      handled += batch.length;
      if (batch.length < BATCH_SIZE) break;
    }
    await pool.drain();
    return handled;
  }

  private claim(statuses?: TaskEntity['status'][]): Promise<TaskEntity[]> {
    const now = this.clock.now();
    // A per-claim owner token, so a late write from an older claim of this instance cannot win.
    const owner = `${this.instanceId}#${++this.claimCounter}`;
    return this.tasks.claimDueTasks(owner, now, now + this.config.taskLeaseMs, BATCH_SIZE, statuses);
  }

  private async pollOne(task: TaskEntity, channel: ChannelEntity | undefined, releases: PollReleaseBuffer): Promise<void> {
    const owner = task.leaseOwner!;
    if (this.stopping) return this.handBack(task, owner);
    const family = task.platform;
    if (task.submitTime !== null && this.clock.now() - task.submitTime > this.config.taskTimeoutMs) {
      await this.transitions.fail(task, 'upstream timeout', {}, owner);
      return;
    }
    if (!channel || !task.upstreamTaskId) {
      await this.transitions.fail(task, 'generation failed: channel no longer exists', {}, owner);
      return;
    }
    const adapter = this.families.adapter(task.platform);
    const interval = pollIntervalFor(channel, adapter);
    const channelLabel = String(channel.id);
    const stopTimer = this.metrics.pollLatency.startTimer({ family });
    const sentAt = this.clock.now();
    try {
      const outcome = await adapter.poll(task, channel);
      stopTimer();
      this.metrics.polls.inc({ family, channel: channelLabel, outcome: outcome.state });
      const now = this.clock.now();
      const elapsed = now - (task.submitTime ?? task.createdAt);
      const estimate = Math.min(95, (elapsed / adapter.expectedDurationMs) * 100);
      const plan = this.transitions.planPoll(task, outcome, estimate, { nextPollAt: nextPollAfter(sentAt, now, interval, adapter.minPollIntervalMs) });
      if (plan.failure === undefined && plan.status === task.status) {
        await releases.add(task, owner, plan.changes);
        return;
      }
      await this.transitions.applyPlan(task, plan, owner);
    } catch (error) {
      stopTimer();
      const kind = error instanceof UpstreamError ? error.kind : 'transient';
      this.metrics.polls.inc({ family, channel: channelLabel, outcome: 'error' });
      this.metrics.upstreamErrors.inc({ family, channel: channelLabel, operation: 'poll', kind });
      const failures = task.pollFailures + 1;
      const retryAfterMs = error instanceof UpstreamError && error.details.retryAfterSeconds ? error.details.retryAfterSeconds * 1000 : 0;
      const delay = Math.max(retryAfterMs, backoffDelay(interval, failures));
      this.logger.warn(`poll of ${task.taskId} failed (${failures} in a row, next in ${delay} ms): ${kind}: ${(error as Error)?.message ?? error}`);
      await this.tasks.release(task.id, owner, { pollFailures: failures, nextPollAt: this.clock.now() + delay });
    }
  }

  /** Shutting down: give a claimed but not yet polled task back, due at once, for another instance. */
  private handBack(task: TaskEntity, owner: string): Promise<void> {
    return this.tasks.release(task.id, owner, { nextPollAt: this.clock.now() });
  }

  /**
   * A task left SUBMITTING by a crashed submit (a live submit keeps extending its lease, so it is
   * never due here): resubmit where the provider de-duplicates, else fail and refund.
   */
  private async settleInterrupted(task: TaskEntity, channels: Map<number, ChannelEntity>): Promise<void> {
    if (this.stopping) return this.handBack(task, task.leaseOwner!);
    const adapter = this.families.adapter(task.platform);
    const channel = channels.get(task.channelId ?? -1);
    if (adapter.idempotentSubmit && channel && channel.status === 'enabled') {
      try {
        await this.submitter.sendUpstream(task, [channel], adapter);
      } catch (error) {
        // sendUpstream already rejected the task and reverted its charge.
        this.logger.warn(`resubmit of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      }
      return;
    }
    await this.transitions.fail(task, SUBMIT_INTERRUPTED, {}, task.leaseOwner ?? undefined);
  }
}

/**
 * The next poll is one interval after this one was sent, not after it finished, so the cadence does
 * not drift by the provider's answer time; and since a poll waiting in a busy worker pool is sent
 * late, counting from its claim instead would bring the next one closer than the interval at the
 * provider. Never sooner than the family's minimum gap (or half an interval) after now either.
 */
export function nextPollAfter(sentAt: number, now: number, interval: number, minGap?: number): number {
  return Math.max(sentAt + interval, now + (minGap ?? interval / 2));
}

/** A channel's `max_concurrency` setting, or the default. */
function channelLimit(channel: ChannelEntity | undefined): number {
  const configured = Number(channel?.settings?.max_concurrency);
  return configured > 0 ? configured : DEFAULT_CHANNEL_CONCURRENCY;
}
