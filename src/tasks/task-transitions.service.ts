import type { EntityManager } from 'typeorm';
import { Injectable, Logger } from '@nestjs/common';
import { AlreadyRefundedError, LedgerService } from '../billing/ledger.service';
import { Clock } from '../common/runtime/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { RefundCause, TaskMetrics } from './task-metrics.service';
import { FAILURE } from '../upstream/failure-reason';
import { keptProviderUsage, sameProviderUsage } from '../upstream/provider-usage';
import type { PollOutcome } from '../upstream/upstream-adapter';
import { attemptUsageOf } from './attempt-usage';
import { TaskEntity } from './task.entity';
import { TaskStateRepository } from './repositories/task-state.repository';
import { TaskEndHooks } from './task-end-hooks';
import { TaskSettlementService } from './settlement/task-settlement.service';
import { canMove, TaskStatus } from './task-status';

export interface PollPlan {
  status: TaskStatus;
  changes: Partial<TaskEntity>;
  /** Set when the task fails; the reason shown to the client. */
  failure?: string;
  /** When the poll behind the plan was answered: the plan's write counts it. */
  polledAt?: number;
}

/**
 * Moves tasks between states. Every move is a compare-and-set on the previous status, and a
 * move to failure carries its refund (a refused submit: its hold's release) in the same
 * transaction, so either happens exactly once.
 */
@Injectable()
export class TaskTransitionsService {
  private readonly logger = new Logger('TaskTransitions');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskStateRepository,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
    private readonly metrics: TaskMetrics,
    private readonly ends: TaskEndHooks,
    private readonly settlement: TaskSettlementService,
  ) {}

  /**
   * What a poll means for the task, without writing anything: the status it moves to and the
   * columns to change (with `lease`, also the next poll time and the released lease, so one write
   * does it all). `failure` is set when the task must fail (and be refunded). `changes.providerUsage`
   * is set when the provider reported a cost the task's attempt does not have yet: the plan's write
   * keeps it against that attempt and the channel `task` names (the one that was read).
   */
  planPoll(task: TaskEntity, outcome: PollOutcome, estimatedProgress: number, lease?: { nextPollAt: number }): PollPlan {
    const now = this.clock.now();
    const polledAt = lease ? now : undefined;
    // The attempt's last report of its provider's cost is kept; one that repeats what it has writes nothing.
    const reported = keptProviderUsage(outcome.providerUsage);
    const usage = reported && !sameProviderUsage(task.providerUsage, reported) ? { providerUsage: reported } : {};
    if (outcome.state === 'failed')
      return {
        status: 'FAILURE',
        changes: { upstreamResponse: outcome.raw, ...usage },
        // The provider's own "cancelled", once the client's cancel was sent to it, is that cancel's end.
        failure: outcome.cancelledUpstream && task.cancelSentAt !== null ? FAILURE.cancelled : (outcome.failReason ?? 'generation failed'),
        polledAt,
      };
    const target: TaskStatus = outcome.state === 'succeeded' ? 'SUCCESS' : outcome.state === 'running' ? 'IN_PROGRESS' : 'QUEUED';
    const progress = target === 'SUCCESS' ? 100 : Math.max(task.progress, Math.min(99, Math.round(outcome.progress ?? estimatedProgress)));
    const changes: Partial<TaskEntity> = { progress, upstreamResponse: outcome.raw, updatedAt: now, pollFailures: 0, ...usage };
    if (lease) Object.assign(changes, { nextPollAt: lease.nextPollAt, leaseOwner: null, leaseUntil: null });
    if (target === 'IN_PROGRESS' || target === 'SUCCESS') changes.startTime = task.startTime ?? now;
    if (target === 'SUCCESS') {
      changes.finishTime = now;
      changes.resultUrl = outcome.videoUrl ?? null;
      // The size the task asked for (the flat form's `size` stays what was asked; `usage` says what was
      // delivered), else, when it asked none, what the provider says it made.
      changes.outputSize = task.outputSize ?? outcome.outputSize ?? null;
      changes.nextPollAt = null;
    }
    // Staying in the same state (or a backwards report) only updates progress and the raw body.
    const status = canMove(task.status, target) ? target : task.status;
    if (status !== task.status) changes.status = status;
    return { status, changes, polledAt };
  }

  /**
   * Applies a plan with a compare-and-set on the task's current status (and lease owner).
   * Returns the status afterwards, or null when another actor moved the task first.
   */
  async applyPlan(task: TaskEntity, plan: PollPlan, leaseOwner?: string): Promise<TaskStatus | null> {
    if (plan.failure !== undefined)
      return (await this.fail(task, plan.failure, plan.changes, leaseOwner, plan.polledAt)) ? 'FAILURE' : null;
    // No store to read the video from: settled as asked with this move, so it completes for its customer now.
    const settlesNow = plan.changes.status === 'SUCCESS' && !this.ends.settlesAfterStoring && plan.changes.settledAt === undefined;
    if (settlesNow) {
      const at = plan.changes.finishTime ?? this.clock.now();
      Object.assign(plan.changes, await this.settlement.asAskedAtEnd({ ...task, ...plan.changes }, at));
    }
    const moves = plan.changes.status !== undefined && plan.changes.status !== task.status;
    // A single conditional UPDATE is atomic by itself: no transaction when nothing moves; a move carries its timeline event (and an end,
    // the rows of the modules reacting to it), a provider's report its attempt's row.
    const won =
      moves || plan.changes.providerUsage
        ? await this.transactions.run((manager) => this.moveAndRecordEvent(manager, task, plan.changes, leaseOwner, plan.polledAt))
        : await this.transactions.runStatement((manager) =>
            this.tasks.compareAndSet(manager, task.id, task.status, plan.changes, leaseOwner, plan.polledAt),
          );
    if (!won) return null;
    Object.assign(task, plan.changes);
    if (settlesNow) this.metrics.settlements.inc({ outcome: 'not_stored' });
    if (plan.changes.status === 'SUCCESS') this.ends.ended(task);
    return plan.status;
  }

  /**
   * Fails a task and refunds its charge in one transaction; false if another actor got there first. A failed task is
   * polled no more, unless `extra.nextPollAt` says when its provider is read again (the late watch, see TaskDeadline).
   */
  async fail(task: TaskEntity, reason: string, extra: Partial<TaskEntity> = {}, leaseOwner?: string, polledAt?: number): Promise<boolean> {
    if (!canMove(task.status, 'FAILURE')) return false;
    const now = this.clock.now();
    const changes: Partial<TaskEntity> = {
      ...extra,
      status: 'FAILURE',
      failReason: reason,
      progress: 100,
      finishTime: now,
      nextPollAt: extra.nextPollAt ?? null,
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
    };
    const cause: RefundCause = reason === FAILURE.timeout ? 'timeout' : reason === FAILURE.cancelled ? 'cancelled' : 'failure';
    const won = await this.settle(task, changes, `refund: task ${task.taskId} failed: ${reason}`, cause, leaseOwner, polledAt);
    if (won) Object.assign(task, changes);
    return won;
  }

  /**
   * The provider said done, but its link never served the video (the archive's verdict): the task
   * fails and is refunded after all, once (a compare-and-set on SUCCESS, the ledger's unique refund);
   * false when it already moved. The one move out of SUCCESS.
   */
  async failUndelivered(task: TaskEntity, reason: string): Promise<boolean> {
    if (task.status !== 'SUCCESS') return false;
    const now = this.clock.now();
    const changes: Partial<TaskEntity> = { status: 'FAILURE', failReason: reason, updatedAt: now };
    const won = await this.settle(task, changes, `refund: task ${task.taskId} failed: ${reason}`, 'failure', undefined, undefined, true);
    if (won) Object.assign(task, changes);
    return won;
  }

  /** The upstream refused the submit: the client never sees the task, and its hold is released. False if `leaseOwner` no longer holds it. */
  async reject(task: TaskEntity, reason: string, leaseOwner?: string): Promise<boolean> {
    const now = this.clock.now();
    const changes: Partial<TaskEntity> = {
      status: 'REJECTED',
      failReason: reason,
      finishTime: now,
      nextPollAt: null,
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
    };
    const won = await this.settle(task, changes, `released: task ${task.taskId} rejected at submit: ${reason}`, 'rejected', leaseOwner);
    if (won) Object.assign(task, changes);
    return won;
  }

  /** The compare-and-set of a move, plus its timeline event (and for an end, what reacts to it) in the same transaction. */
  private async moveAndRecordEvent(
    manager: EntityManager,
    task: TaskEntity,
    changes: Partial<TaskEntity>,
    leaseOwner?: string,
    polledAt?: number,
    afterSuccess = false,
  ): Promise<boolean> {
    if (!(await this.tasks.compareAndSet(manager, task.id, task.status, changes, leaseOwner, polledAt))) return false;
    // Against the attempt and channel the caller read (its copy of the task), even if the task moved on to another since.
    const usage = attemptUsageOf(task, changes.providerUsage, changes.updatedAt ?? this.clock.now());
    if (usage) await this.tasks.recordProviderUsage(manager, usage);
    if (changes.status !== undefined && changes.status !== task.status) {
      const ended = changes.status === 'FAILURE' || changes.status === 'REJECTED';
      await this.tasks.recordEvent(manager, {
        taskRowId: task.id,
        kind: 'status',
        status: changes.status,
        progress: changes.progress ?? task.progress,
        detail: ended ? (changes.failReason ?? null) : null,
        at: changes.updatedAt ?? this.clock.now(),
      });
      if (changes.status === 'SUCCESS' || changes.status === 'FAILURE') {
        await this.ends.record(manager, {
          task: { ...task, ...changes },
          status: changes.status,
          at: changes.updatedAt ?? this.clock.now(),
          ...(afterSuccess ? { afterSuccess } : {}),
          ...(changes.status === 'SUCCESS' ? { step: changes.settledAt != null ? ('done' as const) : ('provider' as const) } : {}),
        });
      }
    }
    return true;
  }

  private async settle(
    task: TaskEntity,
    changes: Partial<TaskEntity>,
    detail: string,
    cause: RefundCause,
    leaseOwner?: string,
    polledAt?: number,
    afterSuccess = false,
  ): Promise<boolean> {
    try {
      const won = await this.transactions.run(async (manager) => {
        if (!(await this.moveAndRecordEvent(manager, task, changes, leaseOwner, polledAt, afterSuccess))) return false;
        if (task.quota > 0) {
          const movement = {
            userId: task.userId,
            taskId: task.taskId,
            model: task.model,
            quota: task.quota,
            channelId: task.channelId,
            detail,
            apiKeyId: task.apiKeyId,
            chargedAt: task.createdAt,
          };
          if (cause === 'rejected') await this.ledger.releaseHold(manager, movement);
          else {
            // A task failing straight from SUBMITTING (moderation at submit, an interrupted submit) is one the client sees: its hold is its charge.
            if (task.status === 'SUBMITTING') await this.ledger.confirmHold(manager, task.taskId, task.channelId);
            await this.ledger.refundInTransaction(manager, movement);
          }
        }
        return true;
      });
      // Counted here, where every refund of a task is written, whoever asked for it.
      if (won && task.quota > 0) this.metrics.refunds.inc({ family: task.platform, cause });
      if (won && changes.status === 'FAILURE') this.ends.ended({ ...task, ...changes });
      return won;
    } catch (error) {
      if (error instanceof AlreadyRefundedError) {
        this.logger.warn(error.message);
        return false;
      }
      throw error;
    }
  }
}
