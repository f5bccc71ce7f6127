import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../common/runtime/clock';
import { JobMetrics } from './job-metrics.service';
import type { LeasedJob } from './leased-job';
import { LeasedJobLoop } from './leased-job-loop';

/**
 * The one runner of the leased background jobs (task sync, asset follow-up, ...). A job registers
 * itself once (in its constructor) and gets its loop back, to run a round by hand (tests, admin).
 * At start every job with an interval is scheduled; at shutdown all of them stop gracefully.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loops = new Map<string, LeasedJobLoop<unknown, unknown>>();

  constructor(
    private readonly metrics: JobMetrics,
    private readonly scheduler: SchedulerRegistry,
    private readonly clock: Clock,
  ) {}

  register<Item, Round>(job: LeasedJob<Item, Round>): LeasedJobLoop<Item, Round> {
    if (this.loops.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
    const now = () => this.clock.now();
    const loop = new LeasedJobLoop(job, this.metrics, now);
    this.loops.set(job.name, loop);
    if (job.oldestDueAt) this.metrics.trackLag(job.name, now, (at) => job.oldestDueAt!(at));
    return loop;
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops.values()) {
      if (loop.job.intervalMs <= 0) continue;
      this.scheduler.addInterval(
        loop.job.name,
        setInterval(() => void loop.tick(), loop.job.intervalMs),
      );
    }
  }

  /** SIGTERM: every job stops claiming, lets its items in flight finish and hands the rest back. */
  async beforeApplicationShutdown(): Promise<void> {
    for (const name of this.loops.keys()) if (this.scheduler.doesExist('interval', name)) this.scheduler.deleteInterval(name);
    await Promise.all([...this.loops.values()].map((loop) => loop.stop()));
  }
}
