import { Injectable } from '@nestjs/common';
import { JobContext } from '../jobs/job-context';
import { RegisteredJob } from '../jobs/registered-job';
import { StoredVideoRemover } from '../storage/stored-video-remover.service';
import type { TaskEntity } from '../tasks/task.entity';
import { HousekeepingStats } from '../housekeeping/housekeeping-stats.service';
import { RetainedTaskRows } from './retained-task-rows';

/** Tasks one claim takes: small batches, so no claim holds many rows. */
const BATCH_SIZE = 50;
/** A few deletions at once: each is two object removals and one short transaction. */
const CONCURRENCY = 4;

/**
 * TASK_RETENTION: deletes tasks that ended longer ago than the retention, with their stored video
 * and thumbnail, timeline, webhook events, deliveries and callback URL (ledger rows stay, they name the task by its
 * id as text). A task whose webhooks are not settled yet (its end unpublished, an attempt pending)
 * waits for them: it is deleted once they are delivered or given up. Crash-safe by its order: the
 * claim leases the task and hides it from its owner; then
 * the store's objects go; then the rows, in one transaction. A claim lost to kill -9 runs out and
 * the next one finishes the job (removing an object already gone is fine), so no object outlives
 * its task and no visible task lacks its video. The rows are RetainedTaskRows'.
 */
@Injectable()
export class TaskRetentionJob extends RegisteredJob<TaskEntity> {
  constructor(
    private readonly rows: RetainedTaskRows,
    private readonly remover: StoredVideoRemover,
    private readonly stats: HousekeepingStats,
    context: JobContext,
  ) {
    super(context, { name: 'task-retention', batchSize: BATCH_SIZE, concurrency: CONCURRENCY });
  }

  /** Off with TASK_RETENTION=0, or with the task sync off (tests run rounds by hand); else about twice per retention, 1 s to 1 min apart. */
  get intervalMs(): number {
    const retention = this.config.taskRetentionMs;
    if (retention <= 0 || this.config.taskSyncIntervalMs <= 0) return 0;
    return Math.min(60_000, Math.max(1000, Math.floor(retention / 2)));
  }

  /** One round by hand (tests): resolves with the number of tasks claimed. */
  pruneNow(): Promise<number> {
    return this.config.taskRetentionMs > 0 ? this.loop.runRound() : Promise.resolve(0);
  }

  claim(limit: number): Promise<TaskEntity[]> {
    const now = this.clock.now();
    const owner = this.claimOwner('r');
    return this.rows.claim(owner, now - this.config.taskRetentionMs, now, now + this.config.taskLeaseMs, limit);
  }

  async handle(task: TaskEntity): Promise<string> {
    const owner = task.leaseOwner!;
    // A copy still being made could land after the removal: the claim just runs out and the task is tried again then.
    if (await this.rows.archivePending(task)) return 'archive_pending';
    const bytes = await this.remover.removeObjectsOf(task);
    const deleted = await this.rows.delete(task, owner);
    // Lost the claim meanwhile: its new owner deletes the rows.
    if (!deleted) return 'superseded';
    this.stats.removed('tasks', 1, bytes);
    return 'deleted';
  }

  /** Shutting down: the task stays hidden and is due again at once. */
  handBack(task: TaskEntity): Promise<void> {
    return this.rows.release(task);
  }

  describe(task: TaskEntity): string {
    return `retention of task ${task.taskId}`;
  }
}
