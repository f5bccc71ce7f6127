import { Logger } from '@nestjs/common';
import type { TaskEntity } from './task.entity';
import type { PollRelease, TaskLeaseRepository } from './repositories/task-lease.repository';
import { passesProgressStep } from './task-events';

const FLUSH_SIZE = 200;

/**
 * Most polls change nothing but progress and the next poll time. Those writes are collected and
 * flushed as one conditional UPDATE per (lease owner, status) group, so the database work per poll
 * stays one row update without one statement (and one lock round trip) per poll.
 *
 * A write that fails is logged and its rows are tried once more with the next flush; it never
 * stops later flushes (a failed task is polled again once its lease ends, nothing is lost).
 */
export class PollReleaseBuffer {
  private readonly groups = new Map<string, { owner: string; status: TaskEntity['status']; rows: PollRelease[] }>();
  /** Rows already written once without success: a second failure drops them. */
  private readonly retried = new Set<number>();
  private size = 0;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly tasks: TaskLeaseRepository,
    private readonly now: () => number,
    private readonly logger: Pick<Logger, 'error'> = new Logger('PollReleaseBuffer'),
  ) {}

  /** Queues the write; flushes when enough have gathered. */
  add(task: TaskEntity, owner: string, changes: Partial<TaskEntity>): Promise<void> {
    const progress = changes.progress ?? task.progress;
    const passedStep = passesProgressStep(task.progress, progress);
    this.queue(owner, task.status, {
      id: task.id,
      progress,
      nextPollAt: changes.nextPollAt ?? null,
      upstreamResponse: changes.upstreamResponse ?? null,
      ...(passedStep ? { passedStep } : {}),
    });
    if (this.size >= FLUSH_SIZE) return this.flush();
    return Promise.resolve();
  }

  /** Writes everything queued so far; flushes run one after another, and one that fails does not fail the next. */
  flush(): Promise<void> {
    const groups = [...this.groups.values()];
    this.groups.clear();
    this.size = 0;
    // write() never rejects, so the chain never stays rejected.
    this.flushing = this.flushing.then(() => this.write(groups));
    return this.flushing;
  }

  private queue(owner: string, status: TaskEntity['status'], row: PollRelease): void {
    const key = `${owner}|${status}`;
    const group = this.groups.get(key) ?? { owner, status, rows: [] };
    group.rows.push(row);
    this.groups.set(key, group);
    this.size++;
  }

  private async write(groups: Array<{ owner: string; status: TaskEntity['status']; rows: PollRelease[] }>): Promise<void> {
    for (const group of groups) {
      try {
        await this.tasks.releaseMany(group.owner, group.status, group.rows, this.now());
        for (const row of group.rows) this.retried.delete(row.id);
      } catch (error) {
        const queued = new Set([...this.groups.values()].flatMap((pending) => pending.rows.map((row) => row.id)));
        const retry = group.rows.filter((row) => !this.retried.has(row.id) && !queued.has(row.id));
        for (const row of group.rows) if (this.retried.has(row.id)) this.retried.delete(row.id);
        for (const row of retry) {
          this.retried.add(row.id);
          this.queue(group.owner, group.status, row);
        }
        const dropped = group.rows.length - retry.length;
        this.logger.error(
          `releasing ${group.rows.length} polled tasks failed (${retry.length} retried with the next flush` +
            `${dropped ? `, ${dropped} not retried` : ''}): ${(error as Error)?.message ?? error}`,
        );
      }
    }
  }
}
