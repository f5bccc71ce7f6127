type Job = () => Promise<void>;

/**
 * Runs jobs with at most `concurrency` in flight overall and at most `limitFor(key)` per key
 * (a channel). Jobs of a full key wait without holding an overall slot. Cheap per job: no
 * promise per waiting job, just queues and counters.
 */
export class KeyedWorkPool {
  private readonly queues = new Map<number, Job[]>();
  private readonly active = new Map<number, number>();
  private running = 0;
  private queued = 0;
  private waiters: Array<{ below: number; resolve: () => void }> = [];

  constructor(
    private readonly concurrency: number,
    private readonly limitFor: (key: number) => number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Jobs queued or running. */
  get size(): number {
    return this.queued + this.running;
  }

  push(key: number, job: Job): void {
    const queue = this.queues.get(key);
    if (queue) queue.push(job);
    else this.queues.set(key, [job]);
    this.queued++;
    this.pump();
  }

  /** Resolves once fewer than `count` jobs are queued or running. */
  whenBelow(count: number): Promise<void> {
    if (this.size < count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ below: count, resolve }));
  }

  /** Resolves once every job has finished. */
  drain(): Promise<void> {
    return this.whenBelow(1);
  }

  private pump(): void {
    let started = true;
    while (this.running < this.concurrency && this.queued > 0 && started) {
      started = false;
      for (const [key, queue] of this.queues) {
        if (this.running >= this.concurrency) break;
        const active = this.active.get(key) ?? 0;
        if (queue.length === 0 || active >= this.limitFor(key)) continue;
        const job = queue.shift()!;
        if (queue.length === 0) this.queues.delete(key);
        this.queued--;
        this.running++;
        this.active.set(key, active + 1);
        started = true;
        void this.run(key, job);
      }
    }
  }

  private async run(key: number, job: Job): Promise<void> {
    try {
      await job();
    } catch (error) {
      this.onError(error);
    } finally {
      this.running--;
      this.active.set(key, (this.active.get(key) ?? 1) - 1);
      this.pump();
      this.notify();
    }
  }

  private notify(): void {
    if (this.waiters.length === 0) return;
    const size = this.size;
    const ready = this.waiters.filter((waiter) => size < waiter.below);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => size >= waiter.below);
    for (const waiter of ready) waiter.resolve();
  }
}
