import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../database/transaction-runner';
import { VideoArchiveRepository } from '../storage/video-archive.repository';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskSweepRepository } from '../tasks/repositories/task-sweep.repository';
import { TaskCallbackRepository } from '../webhooks/task-callback.repository';
import { WebhookSweepRepository } from '../webhooks/webhook-sweep.repository';
import { WebhookOutboxRepository } from '../webhooks/webhook-outbox.repository';

/**
 * The rows TASK_RETENTION asks each owning module about: the claim of ended tasks (passing over those
 * whose webhooks are not settled), an archive still being made, and the task's rows with its
 * archive, outbox entry, webhook events and callback URL, deleted in one transaction.
 */
@Injectable()
export class RetainedTaskRows {
  constructor(
    private readonly tasks: TaskSweepRepository,
    private readonly archives: VideoArchiveRepository,
    private readonly outbox: WebhookOutboxRepository,
    private readonly deliveries: WebhookSweepRepository,
    private readonly callbacks: TaskCallbackRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  claim(owner: string, endedBefore: number, now: number, leaseUntil: number, limit: number): Promise<TaskEntity[]> {
    // Not while a webhook or callback may still be sent (a callback URL needs no hold: publishing moves it onto the attempts).
    const holds = [this.outbox.unpublishedEnd, this.deliveries.pendingAttempt];
    return this.tasks.claimEndedBefore(owner, endedBefore, now, leaseUntil, limit, holds);
  }

  /** A copy still being made could land after the removal. */
  async archivePending(task: TaskEntity): Promise<boolean> {
    return (await this.archives.findOf(task.id))?.status === 'pending';
  }

  /** False (nothing deleted) when the claim was lost meanwhile. */
  delete(task: TaskEntity, owner: string): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      if (!(await this.tasks.deleteClaimed(manager, task.id, owner))) return false;
      await this.archives.deleteForTask(manager, task.id);
      await this.outbox.deleteForTask(manager, task.id);
      await this.deliveries.deleteForTask(manager, task.taskId);
      await this.callbacks.delete(manager, [task.id]);
      return true;
    });
  }

  /** Shutting down: the task stays hidden and is due again at once. */
  release(task: TaskEntity): Promise<void> {
    return this.tasks.releaseRetentionClaim(task.id, task.leaseOwner!);
  }
}
