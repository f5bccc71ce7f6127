import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { FamilyRegistry } from '../../families/family-registry';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { FAILURE } from '../../upstream/failure-reason';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import { isUnknownTask, ProviderCancel } from '../provider-cancel';
import { TaskMetrics } from '../task-metrics.service';
import type { TaskEntity } from '../task.entity';
import { TaskTransitionsService } from '../task-transitions.service';
import { firstLateRead } from './late-watch-schedule';

/** What became of a task at its deadline (the sync round's outcome label). */
export type DeadlineEnd = 'completed' | 'failed' | 'timed_out' | 'timed_out_watched' | 'superseded';

/**
 * TASK_TIMEOUT_MS: before the gateway gives a task up it reads the task at its provider once more,
 * which may have finished it between two polls.
 * - finished: it completes as a poll would have it (stored, settled, charged once);
 * - failed: it fails as the provider says and is refunded, never retried elsewhere (its time is up);
 * - still running: the provider is sent its cancel where the family has one, then the task fails
 *   `upstream timeout` and is refunded;
 * - unreadable (the provider down): it fails `upstream timeout` and is refunded all the same.
 * A task the provider was not made to stop keeps a `next_poll_at` on its FAILURE row, written with
 * the failure itself (so a crash cannot lose it): LateCompletionWatch reads it slowly to learn its end.
 */
@Injectable()
export class TaskDeadline {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly transitions: TaskTransitionsService,
    private readonly families: FamilyRegistry,
    private readonly provider: ProviderCancel,
    private readonly metrics: TaskMetrics,
  ) {}

  passed(task: TaskEntity): boolean {
    return task.submitTime !== null && this.clock.now() - task.submitTime > this.config.taskTimeoutMs;
  }

  /** Ends a task past its deadline, under the sync's lease `owner`. */
  async end(task: TaskEntity, channel: ChannelEntity | undefined, owner: string): Promise<DeadlineEnd> {
    // Nothing to read: a provider retry not yet accepted anywhere, or a channel deleted since.
    if (!channel || !task.upstreamTaskId) return this.timeOut(task, owner, { watch: false });
    const adapter = this.families.adapter(task.platform);
    let outcome: PollOutcome;
    try {
      outcome = await this.provider.read(task, channel, adapter, 'deadline');
    } catch (error) {
      this.countPoll(task, channel, 'error');
      // The client's cancel reached the provider, which took the task away: that cancel's end, as the sync has it.
      if (task.cancelSentAt !== null && isUnknownTask(error)) return this.failAs(task, FAILURE.cancelled, owner);
      // Never kept past its deadline because its provider is down; nothing was cancelled, so it is watched.
      return this.timeOut(task, owner, { watch: true, polledAt: this.clock.now() });
    }
    this.countPoll(task, channel, outcome.state);
    if (outcome.state === 'succeeded' || outcome.state === 'failed') return this.follow(task, outcome, owner);
    const stopped = this.provider.stops(adapter, outcome.state) && (await this.provider.send(task, channel, adapter)) === 'accepted';
    return this.timeOut(task, owner, { watch: !stopped, polledAt: this.clock.now(), upstreamResponse: outcome.raw });
  }

  /** The provider's end, as a poll's plan: no provider retry, past the deadline. */
  private async follow(task: TaskEntity, outcome: PollOutcome, owner: string): Promise<DeadlineEnd> {
    const now = this.clock.now();
    const plan = this.transitions.planPoll(task, outcome, task.progress, { nextPollAt: now });
    // Cancelled at the provider with no client's cancel sent: this deadline's own cancel, sent before a crash.
    if (plan.failure !== undefined && outcome.cancelledUpstream && task.cancelSentAt === null) plan.failure = FAILURE.timeout;
    const status = await this.transitions.applyPlan(task, plan, owner);
    if (status === null) return 'superseded';
    return status === 'FAILURE' ? 'failed' : 'completed';
  }

  private async timeOut(
    task: TaskEntity,
    owner: string,
    read: { watch: boolean; polledAt?: number; upstreamResponse?: unknown },
  ): Promise<DeadlineEnd> {
    const extra: Partial<TaskEntity> = {};
    if (read.upstreamResponse !== undefined) extra.upstreamResponse = read.upstreamResponse;
    if (read.watch) extra.nextPollAt = firstLateRead(this.clock.now());
    const won = await this.transitions.fail(task, FAILURE.timeout, extra, owner, read.polledAt);
    if (!won) return 'superseded';
    return read.watch ? 'timed_out_watched' : 'timed_out';
  }

  private async failAs(task: TaskEntity, reason: string, owner: string): Promise<DeadlineEnd> {
    return (await this.transitions.fail(task, reason, {}, owner, this.clock.now())) ? 'failed' : 'superseded';
  }

  private countPoll(task: TaskEntity, channel: ChannelEntity, outcome: string): void {
    this.metrics.polls.inc({ family: task.platform, channel: String(channel.id), outcome });
  }
}
