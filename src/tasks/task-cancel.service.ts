import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { randomBase62 } from '../common/runtime/random-id';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FamilyRegistry } from '../families/family-registry';
import type { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { FAILURE } from '../upstream/failure-reason';
import { UpstreamCallRecorder } from '../upstream/upstream-call-recorder.service';
import { TaskEntity } from './task.entity';
import { CANCEL_LEASE_PREFIX, TaskRepository } from './task.repository';
import { isTerminal, TaskStatus } from './task-status';
import { TaskTransitionsService } from './task-transitions.service';

/** Times a cancel looks again when the task moved on under it (a poll, the submit's end) before giving up. */
const ATTEMPTS = 3;

/** How a surface names a status in its 409s (`completed` on the flat form, `SUCCESS` on the unified one). */
export type StatusNamer = (status: TaskStatus) => string;

/** What became of one attempt: the cancelled task, or `again` when the task moved on meanwhile. */
type Attempt = TaskEntity | 'again';

/**
 * Cancels a client's task: one not yet accepted by its provider at once; one the provider has,
 * only where its adapter can cancel it, under a lease that fences off the sync's polls while the
 * provider is asked. Either way the end is the transitions' compare-and-set to FAILURE with its
 * refund, so a cancel racing the task's own end (or another cancel) has exactly one winner.
 */
@Injectable()
export class TaskCancelService {
  private readonly logger = new Logger('TaskCancel');

  constructor(
    private readonly tasks: TaskRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly families: FamilyRegistry,
    private readonly channels: ChannelsService,
    private readonly calls: UpstreamCallRecorder,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The task as it ends (failed, `cancelled by the client`), or an AppError: 404, 409 finished, 409 `cancel_not_supported`. */
  async cancel(userId: number, taskId: string, nameStatus: StatusNamer): Promise<TaskEntity> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const task = await this.findCancellable(userId, taskId, nameStatus);
      const outcome = task.status === 'SUBMITTING' ? await this.cancelUnaccepted(task) : await this.cancelUpstream(task);
      if (outcome !== 'again') return outcome;
    }
    throw new AppError(ErrorCode.Conflict, `task ${taskId} kept changing while it was being cancelled; retry`);
  }

  /** Whether a cancel of the task (as it is now) would be tried: not ended, and not yet accepted or its provider can cancel it. */
  cancellable(task: TaskEntity): boolean {
    if (isTerminal(task.status)) return false;
    if (task.status === 'SUBMITTING') return true;
    const adapter = this.families.adapter(task.platform);
    return !!adapter.cancel && (adapter.cancellable?.(task) ?? true);
  }

  /** The caller's task, also while its submit is still running (its client may hold its id); 404 or 409 otherwise. */
  private async findCancellable(userId: number, taskId: string, nameStatus: StatusNamer): Promise<TaskEntity> {
    const task = await this.tasks.findByTaskId(taskId);
    if (!task || task.userId !== userId || task.deletedAt !== null || task.status === 'REJECTED')
      throw AppError.notFound(`task ${taskId} not found`);
    if (isTerminal(task.status))
      throw new AppError(
        ErrorCode.Conflict,
        `task ${taskId} has already ended (status: ${nameStatus(task.status)}); it cannot be cancelled`,
      );
    return task;
  }

  /** The provider has not accepted it: the compare-and-set ends it whoever runs its submit (which then finds it taken). */
  private async cancelUnaccepted(task: TaskEntity): Promise<Attempt> {
    return (await this.transitions.fail(task, FAILURE.cancelled)) ? task : 'again';
  }

  private async cancelUpstream(task: TaskEntity): Promise<Attempt> {
    const adapter = this.families.adapter(task.platform);
    if (!adapter.cancel || !this.cancellable(task)) throw notSupported(task);
    const channel = await this.channelOf(task);
    if (!channel) throw notSupported(task);
    const now = this.clock.now();
    const owner = `${CANCEL_LEASE_PREFIX}${randomBase62(24)}`;
    if (!(await this.tasks.claimForCancel(task.id, task.status, owner, now, now + this.config.taskLeaseMs))) {
      const current = await this.tasks.findByTaskId(task.taskId);
      if (current && !isTerminal(current.status) && current.status === task.status)
        throw new AppError(ErrorCode.Conflict, `task ${task.taskId} is being cancelled already`);
      return 'again';
    }
    const endCall = this.calls.start(channel.id);
    try {
      await adapter.cancel(task, channel);
      endCall(false);
    } catch (error) {
      endCall(true);
      // Not cancelled upstream: the task goes on, polled again at once.
      this.logger.warn(`cancel of ${task.taskId} refused by channel ${channel.id}: ${(error as Error)?.message ?? error}`);
      await this.tasks.release(task.id, owner, { nextPollAt: this.clock.now() });
      throw new AppError(ErrorCode.CancelNotSupported, `the provider did not cancel task ${task.taskId}; it goes on`);
    }
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

function notSupported(task: TaskEntity): AppError {
  return new AppError(ErrorCode.CancelNotSupported, `the provider of task ${task.taskId} cannot cancel it now`);
}
