import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** Where a job's error happened: claiming, a whole round, one item, its back-off write, its hand-back. */
export type JobErrorStage = 'claim' | 'round' | 'item' | 'retry' | 'hand_back';

/** Lag of one job: the oldest due time of its unclaimed work, null when nothing is due. */
export type LagSource = (now: number) => Promise<number | null>;

/** Prometheus metrics of every leased job, labelled by `job`, in the app's registry. */
@Injectable()
export class JobMetrics {
  readonly rounds: Counter<'job' | 'outcome'>;
  readonly items: Counter<'job' | 'outcome'>;
  readonly errors: Counter<'job' | 'stage'>;
  readonly roundDuration: Histogram<'job'>;
  private readonly lagSources = new Map<string, { now: () => number; oldestDueAt: LagSource }>();

  constructor(registry: MetricsRegistry) {
    this.rounds = registry.counter('gateway_job_rounds_total', 'Rounds of each leased job, by outcome (ok, failed)', ['job', 'outcome']);
    this.items = registry.counter(
      'gateway_job_items_total',
      'Items each leased job handled, by outcome (the job names its own; error, handed_back)',
      ['job', 'outcome'],
    );
    this.errors = registry.counter(
      'gateway_job_errors_total',
      'Errors of each leased job, by stage (claim, round, item, retry, hand_back)',
      ['job', 'stage'],
    );
    this.roundDuration = registry.histogram(
      'gateway_job_round_seconds',
      'Duration of one round of a leased job',
      ['job'],
      [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    );
    const lagSources = this.lagSources;
    new Gauge({
      name: 'gateway_job_lag_seconds',
      help: 'Now minus the oldest due item of each leased job (0 when nothing is overdue)',
      labelNames: ['job'] as const,
      registers: [registry],
      async collect() {
        for (const [job, source] of lagSources) {
          const now = source.now();
          const oldest = await source.oldestDueAt(now);
          this.set({ job }, oldest === null ? 0 : Math.max(0, now - oldest) / 1000);
        }
      },
    });
  }

  /** Reports a job's lag on each scrape. */
  trackLag(job: string, now: () => number, oldestDueAt: LagSource): void {
    this.lagSources.set(job, { now, oldestDueAt });
  }
}
