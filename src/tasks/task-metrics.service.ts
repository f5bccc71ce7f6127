import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Clock } from '../common/runtime/clock';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { TaskLeaseRepository } from './repositories/task-lease.repository';
import { TaskStatsRepository } from './repositories/task-stats.repository';

/** Why a task's charge was given back: it failed, it timed out upstream, or the submit was refused. */
export type RefundCause = 'failure' | 'timeout' | 'rejected' | 'cancelled';

/**
 * What settling a delivered video came to: `as_charged` (read, and the charge at submit stands),
 * `refunded_difference` (read, less than asked: the difference refunded), and three ways of charging
 * as asked: `unreadable` (the stored copy could not be read), `not_stored` (no copy was kept: no video
 * store, or the copy failed) and `unpriced` (read, but no price of the task's prices fits what was delivered).
 */
export type SettlementOutcome = 'as_charged' | 'refunded_difference' | 'unreadable' | 'not_stored' | 'unpriced';

/** Prometheus metrics of the task pipeline, in the app's registry. */
@Injectable()
export class TaskMetrics {
  readonly polls: Counter<'family' | 'channel' | 'outcome'>;
  readonly upstreamErrors: Counter<'family' | 'channel' | 'operation' | 'kind'>;
  readonly refunds: Counter<'family' | 'cause'>;
  readonly pollLatency: Histogram<'family'>;
  readonly lateCompletions: Counter<'platform'>;
  readonly pollLag: Histogram;
  readonly settlements: Counter<'outcome'>;

  constructor(
    readonly registry: MetricsRegistry,
    tasks: TaskStatsRepository,
    leases: TaskLeaseRepository,
    clock: Clock,
  ) {
    this.polls = registry.counter('gateway_task_polls_total', 'Upstream task polls by family, channel and outcome', [
      'family',
      'channel',
      'outcome',
    ]);

    this.upstreamErrors = registry.counter(
      'gateway_upstream_errors_total',
      'Failed upstream calls by family, channel, operation and kind',
      ['family', 'channel', 'operation', 'kind'],
    );

    this.refunds = registry.counter(
      'gateway_refunds_total',
      'Tasks refunded, by family and cause (failure, timeout, rejected, cancelled)',
      ['family', 'cause'],
    );

    this.lateCompletions = registry.counter(
      'gateway_late_completions_total',
      'Tasks given up at TASK_TIMEOUT_MS whose provider later reported them finished or failed (the customer stays refunded), by platform',
      ['platform'],
    );

    this.pollLatency = registry.histogram(
      'gateway_task_poll_seconds',
      'Latency of one upstream poll',
      ['family'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
    // Per poll, unlike gateway_task_sync_lag_seconds (the oldest poll still waiting, when scraped).
    this.pollLag = registry.histogram(
      'gateway_poll_lag_seconds',
      'How late each poll reached its provider: the read minus the time the poll was due',
      [],
      [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    );
    this.settlements = registry.counter(
      'gateway_settlements_total',
      'Delivered videos settled, by outcome (as_charged, refunded_difference, unreadable, not_stored, unpriced)',
      ['outcome'],
    );
    new Gauge({
      name: 'gateway_tasks',
      help: 'Tasks by status',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of await tasks.countByStatus()) this.set({ status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'gateway_task_sync_lag_seconds',
      help: 'Now minus the oldest due poll (0 when nothing is overdue)',
      registers: [registry],
      async collect() {
        const now = clock.now();
        const oldest = await leases.oldestDuePollAt(now);
        this.set(oldest === null ? 0 : (now - oldest) / 1000);
      },
    });
  }
}
