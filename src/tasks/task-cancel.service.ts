import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { randomBase62 } from '../common/runtime/random-id';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FamilyRegistry } from '../families/family-registry';
import type { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { FAILURE } from '../upstream/failure-reason';
import type { PollOutcome, UpstreamAdapter } from '../upstream/upstream-adapter';
import { estimatedProgress } from './poll-progress';
import { ProviderCancel } from './provider-cancel';
import { TaskEntity } from './task.entity';
import { CANCEL_LEASE_PREFIX, TaskLeaseRepository } from './repositories/task-lease.repository';
import { TaskReadRepository } from './repositories/task-read.repository';
import { isTerminal, TaskStatus } from './task-status';
import { pollIntervalFor } from './poll-interval';
import { TaskTransitionsService } from './task-transitions.service';
import { isBeingResubmitted } from './retry/being-resubmitted';
import { isSettling } from './settlement/as-customer-sees';

/** Times a cancel looks again when the task moved on under it (a poll, the submit's end) before giving up. */
const ATTEMPTS = 3;
/** A provider that could not be asked: the client may try the cancel again this soon. */
const RETRY_AFTER_SECONDS = 5;

/** How a surface names a status in its 409s (`completed` on the flat form, `SUCCESS` on the unified one). */
export type StatusNamer = (status: TaskStatus) => string;

/** What became of one attempt: the cancelled task, or `again` when the task moved on meanwhile. */
type Attempt = TaskEntity | 'again';

/** One cancel at the provider, under the cancel's lease. */
interface UpstreamCancel {
  task: TaskEntity;
  channel: ChannelEntity;
  adapter: UpstreamAdapter;
  owner: string;
  nameStatus: StatusNamer;
}

/**
 * Cancels a client's task: one not yet accepted by its provider at once; one the provider has,
 * only where its family can cancel, under a lease that fences off the sync's polls while the
 * provider is asked. The provider's own state decides, read first: a task it has finished ends as
 * it ended (a 409 naming that), and only one it still runs in a state it can stop is sent the
 * cancel, which is written down first, so a crash mid-cancel resumes from the provider's answer.
 * Either way the end is the transitions' compare-and-set with its refund, so a cancel racing the
 * task's own end (or another cancel) has exactly one winner.
 */
@Injectable()
export class TaskCancelService {
  private readonly logger = new Logger('TaskCancel');

  constructor(
    private readonly tasks: TaskLeaseRepository,
    private readonly reads: TaskReadRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly families: FamilyRegistry,
    private readonly channels: ChannelsService,
    private readonly provider: ProviderCancel,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The task as it ends (failed, `cancelled by the client`), or an AppError: 404, 409 ended, 409 `cancel_not_supported`, 503. */
  async cancel(userId: number, taskId: string, nameStatus: StatusNamer): Promise<TaskEntity> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const task = await this.findCancellable(userId, taskId, nameStatus);
      // A task being resubmitted has no provider job to stop yet: ended here, its retry then finds it taken.
      const unaccepted = task.status === 'SUBMITTING' || isBeingResubmitted(task);
      const outcome = unaccepted ? await this.cancelUnaccepted(task) : await this.cancelUpstream(task, nameStatus);
      if (outcome !== 'again') return outcome;
    }
    throw new AppError(ErrorCode.Conflict, `task ${taskId} kept changing while it was being cancelled; retry`);
  }

  /** Whether a cancel of the task (as the gateway last saw it) would be tried: not ended, and not yet accepted or its provider may stop it. */
  cancellable(task: TaskEntity): boolean {
    if (isTerminal(task.status)) return false;
    if (task.status === 'SUBMITTING' || isBeingResubmitted(task)) return true;
    return this.provider.stops(this.families.adapter(task.platform), task.status === 'IN_PROGRESS' ? 'running' : 'queued');
  }

  /** The caller's task, also while its submit is still running (its client may hold its id); 404 or 409 otherwise. */
  private async findCancellable(userId: number, taskId: string, nameStatus: StatusNamer): Promise<TaskEntity> {
    const task = await this.reads.findByTaskId(taskId);
    if (!task || task.userId !== userId || task.deletedAt !== null || task.status === 'REJECTED')
      throw AppError.notFound(`task ${taskId} not found`);
    if (isSettling(task)) throw finishing(taskId);
    if (isTerminal(task.status)) throw ended(taskId, nameStatus(task.status));
    return task;
  }

  /** The provider has not accepted it: the compare-and-set ends it whoever runs its submit (which then finds it taken). */
  private async cancelUnaccepted(task: TaskEntity): Promise<Attempt> {
    return (await this.transitions.fail(task, FAILURE.cancelled)) ? task : 'again';
  }

  private async cancelUpstream(task: TaskEntity, nameStatus: StatusNamer): Promise<Attempt> {
    const adapter = this.families.adapter(task.platform);
    if (!this.cancellable(task)) throw notSupported(task);
    const channel = await this.channelOf(task);
    if (!channel) throw notSupported(task);
    const owner = await this.claim(task);
    if (!owner) return 'again';
    const cancel: UpstreamCancel = { task, channel, adapter, owner, nameStatus };
    const outcome = await this.readProvider(cancel);
    if (!this.provider.stops(adapter, outcome.state)) return this.follow(cancel, outcome);
    const sentAt = this.clock.now();
    if (!(await this.tasks.markCancelSent(task.id, owner, sentAt))) return 'again';
    task.cancelSentAt = sentAt;
    const answer = await this.provider.send(task, channel, adapter);
    if (answer === 'accepted') return this.endCancelled(cancel);
    this.logger.warn(`cancel of ${task.taskId} ${answer} by channel ${channel.id}`);
    if (answer === 'unanswered') {
      // It may have taken: the mark stays, and the sync reads the provider's answer at once.
      await this.tasks.release(task.id, owner, { nextPollAt: this.clock.now() });
      throw unreachable(task);
    }
    if (answer === 'busy') {
      await this.tasks.release(task.id, owner, { nextPollAt: this.clock.now(), cancelSentAt: null });
      throw unreachable(task);
    }
    // Refused (too late, say): the task follows the provider.
    return this.follow(cancel, await this.readProvider(cancel, { cancelSentAt: null }), { cancelSentAt: null });
  }

  /** The cancel's lease on the task; null when the task moved on meanwhile (409 when another cancel holds it). */
  private async claim(task: TaskEntity): Promise<string | null> {
    const now = this.clock.now();
    const owner = `${CANCEL_LEASE_PREFIX}${randomBase62(24)}`;
    if (await this.tasks.claimForCancel(task.id, task.status, owner, now, now + this.config.taskLeaseMs)) return owner;
    const current = await this.reads.findByTaskId(task.taskId);
    if (current && !isTerminal(current.status) && current.status === task.status)
      throw new AppError(ErrorCode.Conflict, `task ${task.taskId} is being cancelled already`);
    return null;
  }

  /** The task's state at its provider; a provider that cannot be read leaves the task as it was (polled again at once) and is a 503. */
  private async readProvider({ task, channel, adapter, owner }: UpstreamCancel, onFailure: Partial<TaskEntity> = {}): Promise<PollOutcome> {
    try {
      return await this.provider.read(task, channel, adapter, 'cancel');
    } catch (error) {
      this.logger.warn(`cancel of ${task.taskId}: channel ${channel.id} could not be read: ${(error as Error)?.message ?? error}`);
      await this.tasks.release(task.id, owner, { nextPollAt: this.clock.now(), ...onFailure });
      throw unreachable(task);
    }
  }

  /**
   * The provider's state decides, as a poll's would: a finished task ends as it finished (archived,
   * delivered and charged once, or failed and refunded) and the cancel is a 409 naming that end; a
   * task the provider cannot stop goes on (409 `cancel_not_supported`).
   */
  private async follow(cancel: UpstreamCancel, outcome: PollOutcome, extra: Partial<TaskEntity> = {}): Promise<Attempt> {
    const { task, channel, adapter, owner, nameStatus } = cancel;
    const now = this.clock.now();
    const plan = this.transitions.planPoll(task, outcome, estimatedProgress(task, adapter, now), {
      nextPollAt: now + pollIntervalFor(channel, adapter, this.config),
    });
    Object.assign(plan.changes, extra);
    const status = await this.transitions.applyPlan(task, plan, owner);
    if (status === null) return 'again';
    if (status === 'FAILURE' && task.failReason === FAILURE.cancelled) return task;
    // Done at the provider: its customer sees it in progress until its video is stored and settled (with no store, settled at once).
    if (status === 'SUCCESS') {
      const now = await this.reads.findByTaskId(task.taskId);
      if (now && isSettling(now)) throw finishing(task.taskId);
    }
    if (isTerminal(status)) throw ended(task.taskId, nameStatus(status));
    throw notSupported(task);
  }

  private async endCancelled({ task, owner }: UpstreamCancel): Promise<Attempt> {
    if (await this.transitions.fail(task, FAILURE.cancelled, {}, owner)) return task;
    // Only a cancel that outlived its lease gets here: whoever took the task over decides its end.
    this.logger.warn(`cancel of ${task.taskId} lost its lease before it could end the task`);
    return 'again';
  }

  private async channelOf(task: TaskEntity): Promise<ChannelEntity | null> {
    if (task.channelId === null || !task.upstreamTaskId) return null;
    return this.channels.get(task.channelId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === ErrorCode.NotFound) return null;
      throw error;
    });
  }
}

function ended(taskId: string, status: string): AppError {
  return new AppError(ErrorCode.Conflict, `task ${taskId} has already ended (status: ${status}); it cannot be cancelled`);
}

/** The provider made the video: it is being stored and settled (the customer sees it in progress), too late to cancel. */
function finishing(taskId: string): AppError {
  return new AppError(ErrorCode.Conflict, `task ${taskId} is finishing: its video is made and being stored; it cannot be cancelled`);
}

function notSupported(task: TaskEntity): AppError {
  return new AppError(ErrorCode.CancelNotSupported, `the provider of task ${task.taskId} cannot cancel it now`);
}

function unreachable(task: TaskEntity): AppError {
  return new AppError(ErrorCode.ServiceUnavailable, `the provider of task ${task.taskId} could not be asked to cancel it; retry`, {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}
