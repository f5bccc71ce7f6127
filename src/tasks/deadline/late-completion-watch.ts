import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/errors/app-error';
import { FamilyRegistry } from '../../families/family-registry';
import { JobContext } from '../../jobs/job-context';
import { RegisteredJob } from '../../jobs/registered-job';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { ChannelsService } from '../../upstream/channels.service';
import { keptProviderUsage } from '../../upstream/provider-usage';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import { ProviderCancel } from '../provider-cancel';
import { TaskLateWatchRepository } from '../repositories/task-late-watch.repository';
import { TaskCostLookup } from '../settlement/task-cost-inputs';
import { TaskMetrics } from '../task-metrics.service';
import type { TaskEntity } from '../task.entity';
import { lateCompletionCostUsd } from './late-completion-cost';
import { LATE_READ_INTERVAL_MS, LATE_WATCH_MS, nextLateRead } from './late-watch-schedule';
import { inTaskSpan } from '../../telemetry/tracing';

/** Watched tasks are few (those a provider could not be made to stop): small batches, a few reads at once. */
const BATCH_SIZE = 50;
const CONCURRENCY = 4;
/** Rounds once a minute: a task is due every LATE_READ_INTERVAL_MS at most, so this is soon enough. */
const INTERVAL_MS = 60_000;

/**
 * Reads, slowly, the tasks given up at their deadline whose provider was not made to stop them
 * (TaskDeadline), only to learn how each ended: at most once every 10 minutes, for 24 hours after
 * the deadline. An end (finished, or failed) is kept for the operator as `late_completion`, with the
 * provider's reported usage, counted in `gateway_late_completions_total{platform}`, and the task is
 * read no more. The customer's task stays failed and refunded: nothing here moves quota or status.
 * A claim leases a task for a whole interval, so even a crash mid-read never brings the next read
 * sooner, and any number of instances may run the job. What the late end cost the operator is kept
 * too (`provider_cost_micro_usd`), so the margin counts what the provider billed for it.
 */
@Injectable()
export class LateCompletionWatch extends RegisteredJob<TaskEntity> {
  private readonly logger = new Logger('LateCompletionWatch');

  constructor(
    private readonly rows: TaskLateWatchRepository,
    private readonly families: FamilyRegistry,
    private readonly channels: ChannelsService,
    private readonly provider: ProviderCancel,
    private readonly metrics: TaskMetrics,
    private readonly costs: TaskCostLookup,
    context: JobContext,
  ) {
    super(context, { name: 'late-completion-watch', batchSize: BATCH_SIZE, concurrency: CONCURRENCY });
  }

  /** Off when the task sync is off (tests run rounds by hand). */
  get intervalMs(): number {
    return this.config.taskSyncIntervalMs > 0 ? INTERVAL_MS : 0;
  }

  /** One round by hand (tests): resolves with the number of tasks claimed. */
  watchNow(): Promise<number> {
    return this.loop.runRound();
  }

  claim(limit: number): Promise<TaskEntity[]> {
    const now = this.clock.now();
    return this.rows.claimDue(this.claimOwner('late'), now, now + LATE_READ_INTERVAL_MS, limit);
  }

  handle(task: TaskEntity): Promise<string> {
    return inTaskSpan('task.late-watch', task.taskId, () => this.readLate(task));
  }

  private async readLate(task: TaskEntity): Promise<string> {
    const now = this.clock.now();
    const givenUpAt = task.finishTime ?? now;
    if (now > givenUpAt + LATE_WATCH_MS) return (await this.rows.stop(task)) ? 'watch_over' : 'superseded';
    const channel = await this.channelOf(task);
    if (!channel || !task.upstreamTaskId) return (await this.rows.stop(task)) ? 'channel_gone' : 'superseded';
    let outcome: PollOutcome;
    try {
      outcome = await this.provider.read(task, channel, this.families.adapter(task.platform));
    } catch (error) {
      this.logger.warn(`late read of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      return this.readAgainLater(task, givenUpAt, now, 'unreadable');
    }
    if (outcome.state === 'queued' || outcome.state === 'running') return this.readAgainLater(task, givenUpAt, now, 'running');
    // The deadline's cancel took after all (its answer was lost): stopped by the gateway, not a late completion.
    if (outcome.cancelledUpstream) return (await this.rows.stop(task, now)) ? 'cancelled' : 'superseded';
    const providerUsage = keptProviderUsage(outcome.providerUsage) ?? null;
    const providerCostUsd = lateCompletionCostUsd(outcome.state, providerUsage, task.priceBasis?.asked, await this.costs.of(task));
    const late = { at: now, state: outcome.state, providerUsage, providerCostUsd };
    if (!(await this.rows.record(task, late, now))) return 'superseded';
    this.metrics.lateCompletions.inc({ platform: task.platform });
    this.logger.log(`task ${task.taskId} ${outcome.state} at its provider after it was given up at its deadline (still refunded)`);
    return 'late_completion';
  }

  /** Shutting down: not read yet, so due again at once. */
  async handBack(task: TaskEntity): Promise<void> {
    await this.rows.readAgainAt(task, this.clock.now());
  }

  describe(task: TaskEntity): string {
    return `late watch of task ${task.taskId}`;
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.rows.oldestDueAt(now);
  }

  private async readAgainLater(task: TaskEntity, givenUpAt: number, now: number, outcome: string): Promise<string> {
    const next = nextLateRead(givenUpAt, now);
    const written = next === null ? await this.rows.stop(task, now) : await this.rows.readAgainAt(task, next, now);
    if (!written) return 'superseded';
    return next === null ? 'watch_over' : outcome;
  }

  private channelOf(task: TaskEntity): Promise<ChannelEntity | null> {
    if (task.channelId === null) return Promise.resolve(null);
    return this.channels.get(task.channelId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === ErrorCode.NotFound) return null;
      throw error;
    });
  }
}
