import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { TransactionRunner } from '../../database/transaction-runner';
import { FamilyRegistry } from '../../families/family-registry';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { FAILURE } from '../../upstream/failure-reason';
import { attemptUsageOf } from '../attempt-usage';
import { onOneRoute, storedRoute } from '../dispatch/dispatch-plan';
import { DispatchPlanner } from '../dispatch/dispatch-planner.service';
import { HandToProvider } from '../submit/hand-to-provider';
import { channelNamed } from '../submit/submit-attempts';
import type { TaskEntity } from '../task.entity';
import { TaskReadRepository } from '../repositories/task-read.repository';
import { TaskStateRepository } from '../repositories/task-state.repository';
import { canMove } from '../task-status';
import { PollPlan, TaskTransitionsService } from '../task-transitions.service';
import { RETRY_INTERRUPTED } from './being-resubmitted';
import { RetryEnds } from './retry-ends';

/**
 * Failover after acceptance: a task its provider failed for the provider's own reason (the family's
 * `providerOwnFailure`) is submitted once more on another candidate channel (TASK_PROVIDER_RETRIES),
 * of its platform or, when it kept the client's request, of any platform that routes its model,
 * under the sync's lease on it, keeping its id and its one charge. The decision is written first (in
 * the poll's compare-and-set: running, no provider id, one retry more, the failed attempt in the
 * timeline), so a crash before the new provider answered leaves a task the next claim resumes.
 * Why 9 constructor dependencies: the task repositories are split by job, and the retry both changes the task's state
 * and re-reads it after a hand-over (two of them), besides the plan, the hand-over and the transitions.
 */
@Injectable()
export class ProviderRetry {
  private readonly logger = new Logger('ProviderRetry');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly families: FamilyRegistry,
    private readonly planner: DispatchPlanner,
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskStateRepository,
    private readonly reads: TaskReadRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly submitter: HandToProvider,
    private readonly clock: Clock,
  ) {}

  /** A failed poll's plan: true when the task was handed to another channel instead (or another actor took it meanwhile). */
  async retryIfProviderOwn(task: TaskEntity, plan: PollPlan, failed: ChannelEntity, owner: string): Promise<boolean> {
    const reason = plan.failure;
    if (reason === undefined || !this.mayRetry(task, reason)) return false;
    const dispatch = await this.planner.forRetry(task, failed);
    try {
      if (dispatch.candidates.length === 0) return false;
      if (!(await this.begin(task, plan, failed, reason, owner))) return true;
      try {
        await this.submitter.retry(task, dispatch.candidates, this.endsFor(reason));
      } catch (error) {
        // The ends already failed and refunded the task.
        this.logger.warn(`provider retry of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      }
      return true;
    } finally {
      dispatch.release();
    }
  }

  /**
   * A retry a crash cut off (the lease ran out before a channel answered): sent again to the channel it
   * was going to where that provider de-duplicates a resubmit; elsewhere the provider may have a job
   * the gateway cannot follow, so the task fails and is refunded.
   */
  async resumeInterrupted(task: TaskEntity, channel: ChannelEntity | undefined): Promise<string> {
    const owner = task.leaseOwner!;
    const adapter = this.families.adapter(task.platform);
    if (adapter.idempotentSubmit && channel && channel.status === 'enabled') {
      const candidates = onOneRoute([channel], storedRoute(task, adapter, task.upstreamModel));
      await this.submitter.retry(task, candidates, this.endsFor(RETRY_INTERRUPTED), false).catch((error) => {
        this.logger.warn(`resumed provider retry of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      });
      return 'resubmitted';
    }
    await this.transitions.fail(task, RETRY_INTERRUPTED, {}, owner);
    return 'failed';
  }

  private mayRetry(task: TaskEntity, reason: string): boolean {
    if (task.providerRetries >= this.config.taskProviderRetries) return false;
    // A failure after the client's cancel was sent is that cancel's end.
    if (task.cancelSentAt !== null || reason === FAILURE.cancelled) return false;
    return this.families.ofPlatform(task.platform)?.providerOwnFailure?.(reason) === true;
  }

  /** The retry decided, in one compare-and-set under the poll's lease: the task runs on, its provider id cleared, the failed attempt recorded. */
  private async begin(task: TaskEntity, plan: PollPlan, failed: ChannelEntity, reason: string, owner: string): Promise<boolean> {
    const now = this.clock.now();
    const status = canMove(task.status, 'IN_PROGRESS') ? 'IN_PROGRESS' : task.status;
    const changes: Partial<TaskEntity> = {
      ...plan.changes,
      status,
      upstreamTaskId: null,
      // The next attempt's reports start afresh (the failed one's is kept against its own attempt and channel).
      providerUsage: null,
      providerRetries: task.providerRetries + 1,
      startTime: task.startTime ?? now,
      pollFailures: 0,
      // Held while the new channel is asked; the heartbeat extends it, and a crash frees the task once it runs out.
      leaseUntil: now + this.config.taskLeaseMs,
      nextPollAt: now + this.config.taskLeaseMs,
      updatedAt: now,
    };
    const usage = attemptUsageOf(task, plan.changes.providerUsage, now, failed.id);
    const won = await this.transactions.run(async (manager) => {
      if (!(await this.tasks.compareAndSet(manager, task.id, task.status, changes, owner, plan.polledAt))) return false;
      if (usage) await this.tasks.recordProviderUsage(manager, usage);
      if (status !== task.status)
        await this.tasks.recordEvent(manager, { taskRowId: task.id, kind: 'status', status, progress: task.progress, at: now });
      await this.tasks.recordEvent(manager, {
        taskRowId: task.id,
        kind: 'attempt',
        status,
        detail: `${channelNamed(failed)} failed: ${reason} (the provider's own failure: submitted again on another channel)`,
        at: now,
      });
      return true;
    });
    if (won) Object.assign(task, changes);
    return won;
  }

  private endsFor(reason: string): RetryEnds {
    return new RetryEnds(
      {
        transactions: this.transactions,
        tasks: this.tasks,
        reads: this.reads,
        transitions: this.transitions,
        clock: this.clock,
        config: this.config,
        logger: this.logger,
      },
      reason,
    );
  }
}
