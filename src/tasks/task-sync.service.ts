import { Injectable, Logger } from '@nestjs/common';
import { inTaskSpan } from '../telemetry/tracing';
import { TaskMetrics } from './task-metrics.service';
import { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { UpstreamError } from '../upstream/upstream-adapter';
import { UpstreamCallRecorder } from '../upstream/upstream-call-recorder.service';
import { FamilyRegistry } from '../families/family-registry';
import { JobContext } from '../jobs/job-context';
import type { RetryPolicy } from '../jobs/leased-job';
import { RegisteredJob } from '../jobs/registered-job';
import { FAILURE } from '../upstream/failure-reason';
import { estimatedProgress } from './poll-progress';
import { PollReleaseBuffer } from './poll-release-buffer';
import { isUnknownTask } from './provider-cancel';
import { TaskEntity } from './task.entity';
import { TaskLeaseRepository } from './repositories/task-lease.repository';
import { pollIntervalFor } from './poll-interval';
import { TaskDeadline } from './deadline/task-deadline';
import { isBeingResubmitted } from './retry/being-resubmitted';
import { ProviderRetry } from './retry/provider-retry.service';
import { HandToProvider } from './submit/hand-to-provider';
import { SUBMIT_INTERRUPTED } from './submit/submit-outcomes';
import { TaskTransitionsService } from './task-transitions.service';

const BATCH_SIZE = 500;
/** Upper bound of tasks one round takes on, so a round ends and the next sees fresh due times. */
const MAX_TASKS_PER_ROUND = 20_000;
/** Polls in flight at once on this instance, across all channels. */
const GLOBAL_CONCURRENCY = 128;
/** Per-channel in-flight polls when the channel sets no `max_concurrency`. */
const DEFAULT_CHANNEL_CONCURRENCY = 64;

/** What one sync round's tasks share. */
interface SyncRound {
  channels: Map<number, ChannelEntity>;
  releases: PollReleaseBuffer;
  flusher: NodeJS.Timeout;
  /** Tasks left SUBMITTING by a crashed submit are claimed once per round, with the first batch. */
  interruptedClaimed: boolean;
  /** When each task of the round was claimed: the next poll counts from it (see nextPollAfter). */
  claimedAt: Map<number, number>;
  /** When each task of the round was due, as the claim found it: the poll's lag counts from it. */
  dueAt: Map<number, number>;
}

/**
 * Follows tasks to their end, as a leased job of the {@link JobRunner}: a round claims due tasks in
 * batches with a lease in the database (so any number of instances can run it), polls them
 * concurrently within a global bound and each channel's `max_concurrency`, and applies each outcome
 * in one compare-and-set write that also schedules the next poll and frees the lease. Transport
 * trouble backs off with jitter and never fails a task by itself; only `TASK_TIMEOUT_MS` does, after
 * one more look at the provider (TaskDeadline).
 * Why 10 constructor dependencies: a leased job (its JobContext, its lease repository) whose round
 * meets every end a poll can have (the transitions, the resubmit, the provider retry, the deadline, the family's adapter,
 * the channel, its call statistics, the metrics); each is one line of the round, and splitting the round would only pass them on.
 */
@Injectable()
export class TaskSyncService extends RegisteredJob<TaskEntity, SyncRound> {
  private readonly logger = new Logger('TaskSync');

  constructor(
    private readonly tasks: TaskLeaseRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly submitter: HandToProvider,
    private readonly families: FamilyRegistry,
    private readonly channels: ChannelsService,
    private readonly metrics: TaskMetrics,
    private readonly calls: UpstreamCallRecorder,
    private readonly retries: ProviderRetry,
    private readonly deadline: TaskDeadline,
    context: JobContext,
  ) {
    super(context, { name: 'task-sync', batchSize: BATCH_SIZE, maxItemsPerRound: MAX_TASKS_PER_ROUND, concurrency: GLOBAL_CONCURRENCY });
  }

  get intervalMs(): number {
    return this.config.taskSyncIntervalMs;
  }

  /** One round: claim due work batch by batch and handle each task on its own. Returns how many were claimed. */
  syncDueTasks(): Promise<number> {
    return this.loop.runRound();
  }

  async openRound(): Promise<SyncRound> {
    const channels = new Map((await this.channels.list()).map((channel) => [channel.id, channel]));
    const releases = new PollReleaseBuffer(this.tasks, () => this.clock.now());
    // Quiet polls are written in batches; flush regularly so no lease is held longer than needed.
    const flusher = setInterval(() => void releases.flush().catch((error) => this.logger.error(`release flush failed: ${error}`)), 100);
    return { channels, releases, flusher, interruptedClaimed: false, claimedAt: new Map(), dueAt: new Map() };
  }

  async closeRound(round: SyncRound): Promise<void> {
    clearInterval(round.flusher);
    await round.releases.flush();
  }

  async claim(limit: number, round: SyncRound): Promise<TaskEntity[]> {
    // Taken before claiming, like the claim's own "due by now": the next poll is then due by the same tick.
    const claimedAt = this.clock.now();
    let interrupted: TaskEntity[] = [];
    if (!round.interruptedClaimed) {
      round.interruptedClaimed = true;
      interrupted = await this.claimTasks(limit, ['SUBMITTING']);
      if (interrupted.length >= limit) return interrupted;
    }
    const due = await this.claimTasks(limit - interrupted.length, undefined, round.dueAt);
    for (const task of due) round.claimedAt.set(task.id, claimedAt);
    return interrupted.length ? [...interrupted, ...due] : due;
  }

  keyOf(task: TaskEntity): number {
    return task.channelId ?? -1;
  }

  /** A channel's `max_concurrency` setting, or the default. */
  limitFor(channelId: number, round: SyncRound): number {
    const configured = Number(round.channels.get(channelId)?.settings?.max_concurrency);
    return configured > 0 ? configured : DEFAULT_CHANNEL_CONCURRENCY;
  }

  handle(task: TaskEntity, round: SyncRound): Promise<string> {
    return task.status === 'SUBMITTING'
      ? inTaskSpan('task.resubmit', task.taskId, () => this.settleInterrupted(task, round.channels))
      : inTaskSpan('task.poll', task.taskId, () => this.pollOne(task, round));
  }

  /** Shutting down: give a claimed but not yet polled task back, due at once, for another instance. */
  handBack(task: TaskEntity): Promise<void> {
    return this.tasks.release(task.id, task.leaseOwner!, { nextPollAt: this.clock.now() });
  }

  describe(task: TaskEntity): string {
    return `task ${task.taskId}`;
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.tasks.oldestDuePollAt(now);
  }

  /** A failed poll (or write) is tried again after a jittered back-off from the channel's poll interval. */
  readonly retry: RetryPolicy<TaskEntity, SyncRound> = {
    intervalMs: (task, round) => {
      const channel = round.channels.get(task.channelId ?? -1);
      const adapter = this.families.adapter(task.platform);
      return channel ? pollIntervalFor(channel, adapter) : adapter.defaultPollIntervalMs;
    },
    failures: (task) => task.pollFailures,
    minDelayMs: (error) => (error instanceof UpstreamError && error.details.retryAfterSeconds ? error.details.retryAfterSeconds * 1000 : 0),
    // A task in SUBMITTING was being resubmitted, not polled: only the others count a poll.
    later: (task, failures, dueAt) =>
      this.tasks.release(
        task.id,
        task.leaseOwner!,
        { pollFailures: failures, nextPollAt: dueAt },
        task.status === 'SUBMITTING' ? undefined : this.clock.now(),
      ),
  };

  private claimTasks(limit: number, statuses?: TaskEntity['status'][], dueAt?: Map<number, number>): Promise<TaskEntity[]> {
    const now = this.clock.now();
    // A per-claim owner token, so a late write from an older claim of this instance cannot win.
    const owner = this.claimOwner('');
    return this.tasks.claimDueTasks(owner, now, now + this.config.taskLeaseMs, limit, statuses, dueAt);
  }

  private async pollOne(task: TaskEntity, round: SyncRound): Promise<string> {
    const owner = task.leaseOwner!;
    const channel = round.channels.get(task.channelId ?? -1);
    const family = task.platform;
    if (this.deadline.passed(task)) return this.deadline.end(task, channel, owner);
    // A provider retry whose instance died before a channel answered.
    if (isBeingResubmitted(task)) return this.retries.resumeInterrupted(task, channel);
    if (!channel || !task.upstreamTaskId) {
      await this.transitions.fail(task, 'generation failed: channel no longer exists', {}, owner);
      return 'failed';
    }
    const adapter = this.families.adapter(task.platform);
    const interval = pollIntervalFor(channel, adapter);
    const channelLabel = String(channel.id);
    const dueAt = round.dueAt.get(task.id);
    if (dueAt !== undefined) this.metrics.pollLag.observe(Math.max(0, this.clock.now() - dueAt) / 1000);
    const stopTimer = this.metrics.pollLatency.startTimer({ family });
    const endCall = this.calls.start(channel.id);
    let outcome;
    try {
      outcome = await adapter.poll(task, channel);
    } catch (error) {
      if (task.cancelSentAt !== null && isUnknownTask(error)) {
        // The client's cancel reached the provider (which took the task away) before its canceller could end it: a crash, say.
        stopTimer();
        endCall(false);
        await this.transitions.fail(task, FAILURE.cancelled, {}, owner, this.clock.now());
        return 'cancelled';
      }
      // Counted here; the runner backs the task off (never sooner than Retry-After) and frees it.
      stopTimer();
      endCall(true);
      this.metrics.polls.inc({ family, channel: channelLabel, outcome: 'error' });
      this.metrics.upstreamErrors.inc({
        family,
        channel: channelLabel,
        operation: 'poll',
        kind: error instanceof UpstreamError ? error.kind : 'transient',
      });
      throw error;
    }
    stopTimer();
    endCall(false);
    this.metrics.polls.inc({ family, channel: channelLabel, outcome: outcome.state });
    const now = this.clock.now();
    const plan = this.transitions.planPoll(task, outcome, estimatedProgress(task, adapter, now), {
      nextPollAt: nextPollAfter(round.claimedAt.get(task.id) ?? now, now, interval, adapter.minPollIntervalMs),
    });
    // A quiet poll (same state, no new cost reported) joins the batched write; anything else is written on its own.
    if (plan.failure === undefined && plan.status === task.status && plan.changes.providerUsage === undefined) {
      await round.releases.add(task, owner, plan.changes);
      return 'polled';
    }
    if (plan.failure !== undefined && (await this.retries.retryIfProviderOwn(task, plan, channel, owner))) return 'retried';
    await this.transitions.applyPlan(task, plan, owner);
    return 'settled';
  }

  /**
   * A task left SUBMITTING by a crashed submit (a live submit keeps extending its lease, so it is
   * never due here): resubmit where the provider de-duplicates, else fail and refund.
   */
  private async settleInterrupted(task: TaskEntity, channels: Map<number, ChannelEntity>): Promise<string> {
    const adapter = this.families.adapter(task.platform);
    const channel = channels.get(task.channelId ?? -1);
    if (adapter.idempotentSubmit && channel && channel.status === 'enabled') {
      try {
        await this.submitter.resend(task, channel, adapter);
      } catch (error) {
        // HandToProvider already rejected the task and released its hold.
        this.logger.warn(`resubmit of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      }
      return 'resubmitted';
    }
    await this.transitions.fail(task, SUBMIT_INTERRUPTED, {}, task.leaseOwner ?? undefined);
    return 'failed';
  }
}

/** Timers fire a few ms early or late: a poll due this much after a tick is still the tick's work. */
const TICK_JITTER_MS = 25;

/**
 * The next poll is one interval after this one was claimed (a hair less, so that the tick an interval
 * later still finds it due despite timer jitter), so the cadence keeps to the sync's ticks and does
 * not drift by the time a poll waits or takes. But a poll that waited in a busy worker pool reached
 * the provider late: the next one comes no sooner than the family's minimum gap (or three quarters
 * of an interval) after this one's answer, so the provider never sees two polls bunched up.
 */
export function nextPollAfter(claimedAt: number, now: number, interval: number, minGap?: number): number {
  return Math.max(claimedAt + interval - TICK_JITTER_MS, now + (minGap ?? (interval * 3) / 4));
}
