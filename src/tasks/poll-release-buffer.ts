import type { TaskEntity } from './task.entity';
import type { TaskRepository, PollRelease } from './task.repository';

const FLUSH_SIZE = 200;

/**
 * Most polls change nothing but progress and the next poll time. Those writes are collected and
 * flushed as one conditional UPDATE per (lease owner, status) group, so the database work per poll
 * stays one row update without one statement (and one lock round trip) per poll.
 */
export class PollReleaseBuffer {
  private readonly groups = new Map<string, { owner: string; status: TaskEntity['status']; rows: PollRelease[] }>();
  private size = 0;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly tasks: TaskRepository,
    private readonly now: () => number,
  ) {}

  /** Queues the write; flushes when enough have gathered. */
  add(task: TaskEntity, owner: string, changes: Partial<TaskEntity>): Promise<void> {
    const key = `${owner}|${task.status}`;
    const group = this.groups.get(key) ?? { owner, status: task.status, rows: [] };
    group.rows.push({ id: task.id, progress: changes.progress ?? task.progress, nextPollAt: changes.nextPollAt ?? null, upstreamResponse: changes.upstreamResponse ?? null });
    this.groups.set(key, group);
    if (++this.size >= FLUSH_SIZE) return this.flush();
    return Promise.resolve();
  }

  /** Writes everything queued so far; flushes run one after another. */
  flush(): Promise<void> {
    const groups = [...this.groups.values()];
    this.groups.clear();
    this.size = 0;
    this.flushing = this.flushing.then(async () => {
      for (const group of groups) await this.tasks.releaseMany(group.owner, group.status, group.rows, this.now());
    });
    return this.flushing;
  }
}
