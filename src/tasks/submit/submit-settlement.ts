import { Inject, Injectable, Logger } from '@nestjs/common';
import { LedgerService } from '../../billing/ledger.service';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isDatabaseUnavailable } from '../../common/errors/database-errors';
import { TransactionRunner } from '../../database/transaction-runner';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { FAILURE } from '../../upstream/failure-reason';
import { keptProviderUsage } from '../../upstream/provider-usage';
import type { SubmitOutcome, UpstreamAdapter } from '../../upstream/upstream-adapter';
import { attemptUsageOf } from '../attempt-usage';
import { PendingSubmitWrites } from '../pending-submit-writes';
import { pollIntervalFor } from '../poll-interval';
import { ProviderCancel } from '../provider-cancel';
import { TaskEntity } from '../task.entity';
import { TaskReadRepository } from '../repositories/task-read.repository';
import { TaskStateRepository } from '../repositories/task-state.repository';
import { TaskSubmitRepository } from '../repositories/task-submit.repository';
import { TaskTransitionsService } from '../task-transitions.service';
import { channelNamed } from './submit-attempts';
import { isStarted, SUBMIT_UNCONFIRMED, SubmitInterruptedError } from './submit-outcomes';

/**
 * The last step of a submit: the provider accepted the task (it becomes visible and its hold its
 * charge, in one transaction), or the submit lost its task to a takeover (whoever took it decides),
 * or the client was answered 503 (the task is refused once the database answers again).
 * Why 10 constructor dependencies: the task repositories are split by job, and the settlement uses three of them (the
 * state change, the submit's acceptance, the re-read after a takeover) besides the ledger, the pending writes and the cancel.
 */
@Injectable()
export class SubmitSettlement {
  private readonly logger = new Logger('TaskSubmit');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskStateRepository,
    private readonly submits: TaskSubmitRepository,
    private readonly reads: TaskReadRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly ledger: LedgerService,
    private readonly pending: PendingSubmitWrites,
    private readonly providerCancel: ProviderCancel,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The provider took the task as `outcome`: marked submitted under `owner`'s lease, or what became of it if it was taken over. */
  async accepted(
    task: TaskEntity,
    channel: ChannelEntity,
    adapter: UpstreamAdapter,
    outcome: SubmitOutcome,
    owner: string,
  ): Promise<TaskEntity> {
    const now = this.clock.now();
    const providerUsage = keptProviderUsage(outcome.providerUsage);
    const changes: Partial<TaskEntity> = {
      status: 'NOT_START',
      upstreamTaskId: outcome.upstreamTaskId,
      submitTime: now,
      nextPollAt: now + pollIntervalFor(channel, adapter, this.config),
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
      ...(outcome.requestPatch ? { request: { ...task.request, ...outcome.requestPatch } } : {}),
      ...(providerUsage ? { providerUsage } : {}),
    };
    const accepted = {
      upstreamTaskId: outcome.upstreamTaskId,
      submitTime: now,
      nextPollAt: changes.nextPollAt!,
      request: changes.request,
      providerUsage,
    };
    // The first attempt's report, on the channel that took it.
    const usage = attemptUsageOf(task, providerUsage, now, channel.id);
    const accept = () =>
      this.transactions.run(async (manager) => {
        if (!(await this.submits.markSubmitted(manager, task.id, owner, accepted))) return false;
        if (usage) await this.tasks.recordProviderUsage(manager, usage);
        await this.ledger.confirmHold(manager, task.taskId, channel.id);
        await this.tasks.recordEvent(manager, {
          taskRowId: task.id,
          kind: 'submitted',
          status: 'NOT_START',
          progress: task.progress,
          detail: channelNamed(channel),
          at: now,
        });
        return true;
      });
    let kept: boolean;
    try {
      kept = await accept();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // The provider has the job and the task's record committed: the client gets its task (a 503 would
      // have it retry and pay twice), and the acceptance is written once the database answers (if the
      // lease runs out first, the sync settles the task as any interrupted submit).
      this.pending.owe(`acceptance of task ${task.taskId}`, async () => (await accept(), true));
      return Object.assign(task, changes);
    }
    if (!kept) {
      await this.dropIfCancelled(task, channel, adapter, outcome.upstreamTaskId);
      return this.afterTakeover(task, outcome.upstreamTaskId);
    }
    return Object.assign(task, changes);
  }

  /**
   * The task was taken over while this submit ran (its lease ran out: the instance stalled, or the
   * database was unreachable), so whoever took it decides. The client gets the task as it now is
   * once the provider had it (family A's resubmit with the same trace id finds the same job); else
   * (failed as interrupted, refused, still being resubmitted) a 503 to retry: never `queued` for a
   * task that failed.
   */
  async afterTakeover(task: TaskEntity, upstreamTaskId?: string): Promise<TaskEntity> {
    const current = await this.reads.findByTaskId(task.taskId);
    if (upstreamTaskId && current?.upstreamTaskId !== upstreamTaskId) {
      // The protocols give no way to cancel it; operators can match it by these ids.
      this.logger.error(
        `submit of ${task.taskId} lost its task after channel ${task.channelId} accepted it as ${upstreamTaskId}; that provider job is not followed`,
      );
    }
    if (current && isStarted(current)) return current;
    this.logger.warn(`submit of ${task.taskId} lost its task (now ${current?.status ?? 'gone'})`);
    const resubmitting = current?.status === 'SUBMITTING' && current.leaseUntil !== null;
    const retryAfterSeconds = resubmitting ? Math.min(60, Math.max(1, Math.ceil((current.leaseUntil! - this.clock.now()) / 1000))) : 1;
    throw new SubmitInterruptedError(retryAfterSeconds);
  }

  /**
   * The client of this task was answered 503 for want of a usable database: once it answers again,
   * refuse the task (REJECTED, its hold released) whoever leases it, unless it was settled already.
   * A COMMIT cut off may still land a moment after the database answers again, so a task not (yet)
   * there is looked for again until its record's lease would have run out.
   */
  oweRefusal(task: TaskEntity): void {
    const lookUntil = this.clock.now() + this.config.taskLeaseMs;
    this.pending.owe(
      `refusal of task ${task.taskId}`,
      async () => (await this.refuseIfSubmitting(task.taskId, SUBMIT_UNCONFIRMED)) !== null || this.clock.now() > lookUntil,
    );
  }

  /**
   * Refuses a task still SUBMITTING, whoever leases it (REJECTED, its hold released, exactly once by
   * the compare-and-set). Returns the task as it is afterwards; null when there is no such task.
   */
  async refuseIfSubmitting(taskId: string, reason: string): Promise<TaskEntity | null> {
    // Found by its task id: a row id given out to a rolled-back insert may belong to another task now.
    const current = await this.reads.findByTaskId(taskId);
    if (current?.status !== 'SUBMITTING' || (await this.transitions.reject(current, reason))) return current;
    return this.reads.findByTaskId(taskId);
  }

  /** The client cancelled the task while the provider was accepting it: the provider is asked to drop its job too, where it can (best effort). */
  private async dropIfCancelled(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter, upstreamTaskId: string): Promise<void> {
    if (!adapter.cancel) return;
    const current = await this.reads.findByTaskId(task.taskId);
    if (current?.status !== 'FAILURE' || current.failReason !== FAILURE.cancelled) return;
    const accepted = Object.assign(new TaskEntity(), current, { status: 'NOT_START', upstreamTaskId });
    const answer = await this.providerCancel
      .stopIfRunning(accepted, channel, adapter)
      .catch((error: unknown) => `not read: ${(error as Error)?.message ?? error}`);
    if (answer !== 'accepted')
      this.logger.warn(`provider job ${upstreamTaskId} of cancelled task ${task.taskId} not cancelled (${answer})`);
  }
}
