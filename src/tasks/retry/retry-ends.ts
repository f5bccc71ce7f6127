import type { Logger } from '@nestjs/common';
import type { Clock } from '../../common/runtime/clock';
import type { AppConfig } from '../../config/app-config';
import type { TransactionRunner } from '../../database/transaction-runner';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { keptProviderUsage } from '../../upstream/provider-usage';
import type { SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import { attemptUsageOf } from '../attempt-usage';
import { pollIntervalFor } from '../poll-interval';
import { channelNamed } from '../submit/submit-attempts';
import type { SubmitEnds } from '../submit/submit-ends';
import type { TaskEntity } from '../task.entity';
import type { TaskReadRepository } from '../repositories/task-read.repository';
import type { TaskStateRepository } from '../repositories/task-state.repository';
import type { TaskTransitionsService } from '../task-transitions.service';

export interface RetryEndsDeps {
  transactions: TransactionRunner;
  tasks: TaskStateRepository;
  reads: TaskReadRepository;
  transitions: TaskTransitionsService;
  clock: Clock;
  config: Pick<AppConfig, 'publicBaseUrlSet' | 'providerPushPollMs'>;
  logger: Logger;
}

/**
 * How a provider retry ends: the client sees the task running throughout and its one charge stands.
 * A channel that takes it gives the task its new provider id (no ledger row); if none does, the task
 * fails with the first provider's reason and is refunded, once, by the transitions' compare-and-set.
 */
export class RetryEnds implements SubmitEnds {
  readonly status = 'IN_PROGRESS' as const;

  constructor(
    private readonly deps: RetryEndsDeps,
    /** The first provider's reason: the task's end if no channel takes it. */
    private readonly reason: string,
  ) {}

  async accepted(
    task: TaskEntity,
    channel: ChannelEntity,
    adapter: UpstreamAdapter,
    outcome: SubmitOutcome,
    owner: string,
  ): Promise<TaskEntity> {
    const now = this.deps.clock.now();
    const providerUsage = keptProviderUsage(outcome.providerUsage);
    const changes: Partial<TaskEntity> = {
      upstreamTaskId: outcome.upstreamTaskId,
      submitTime: now,
      nextPollAt: now + pollIntervalFor(channel, adapter, this.deps.config),
      leaseOwner: null,
      leaseUntil: null,
      pollFailures: 0,
      updatedAt: now,
      ...(outcome.requestPatch ? { request: { ...task.request, ...outcome.requestPatch } } : {}),
      ...(providerUsage ? { providerUsage } : {}),
    };
    const kept = await this.deps.transactions.run(async (manager) => {
      if (!(await this.deps.tasks.compareAndSet(manager, task.id, this.status, changes, owner))) return false;
      // The retry's own attempt (its provider retries already counted), on the channel that took it.
      const usage = attemptUsageOf(task, providerUsage, now, channel.id);
      if (usage) await this.deps.tasks.recordProviderUsage(manager, usage);
      const event = { taskRowId: task.id, kind: 'submitted' as const, status: this.status, progress: task.progress };
      await this.deps.tasks.recordEvent(manager, { ...event, detail: channelNamed(channel), at: now });
      return true;
    });
    if (!kept) {
      this.deps.logger.error(
        `provider retry of ${task.taskId} lost its task after channel ${channel.id} accepted it as ${outcome.upstreamTaskId}; that provider job is not followed`,
      );
      return this.lost(task);
    }
    return Object.assign(task, changes);
  }

  refusedInput(task: TaskEntity, _error: UpstreamError, owner: string): Promise<TaskEntity> {
    return this.fail(task, owner);
  }

  noneAccepted(
    task: TaskEntity,
    _lastError: UpstreamError | null,
    _backpressure: UpstreamError | null,
    owner: string,
  ): Promise<TaskEntity> {
    return this.fail(task, owner);
  }

  async crashed(task: TaskEntity, error: unknown, owner: string): Promise<unknown> {
    this.deps.logger.error(`provider retry of ${task.taskId} crashed: ${(error as Error)?.stack ?? error}`);
    await this.fail(task, owner);
    return error;
  }

  async lost(task: TaskEntity): Promise<TaskEntity> {
    return (await this.deps.reads.findByTaskId(task.taskId)) ?? task;
  }

  private async fail(task: TaskEntity, owner: string): Promise<TaskEntity> {
    await this.deps.transitions.fail(task, this.reason, {}, owner);
    return task;
  }
}
