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
    this.polls = new Counter({
      name: 'gateway_task_polls_total',
      help: 'Upstream task polls by family, channel and outcome',
      labelNames: ['family', 'channel', 'outcome'] as const,
      registers: [registry],
    });

    this.upstreamErrors = new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Failed upstream calls by family, channel, operation and kind',
      labelNames: ['family', 'channel', 'operation', 'kind'] as const,
      registers: [registry],
    });

    this.refunds = new Counter({
      name: 'gateway_refunds_total',
      help: 'Tasks refunded, by family and cause (failure, timeout, rejected, cancelled)',
      labelNames: ['family', 'cause'] as const,
      registers: [registry],
    });

    this.lateCompletions = new Counter({
      name: 'gateway_late_completions_total',
      help: 'Tasks given up at TASK_TIMEOUT_MS whose provider later reported them finished or failed (the customer stays refunded), by platform',
      labelNames: ['platform'] as const,
      registers: [registry],
    });

    this.pollLatency = new Histogram({
      name: 'gateway_task_poll_seconds',
      help: 'Latency of one upstream poll',
      labelNames: ['family'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    // Per poll, unlike gateway_task_sync_lag_seconds (the oldest poll still waiting, when scraped).
    this.pollLag = new Histogram({
      name: 'gateway_poll_lag_seconds',
      help: 'How late each poll reached its provider: the read minus the time the poll was due',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    });
    this.settlements = new Counter({
      name: 'gateway_settlements_total',
      help: 'Delivered videos settled, by outcome (as_charged, refunded_difference, unreadable, not_stored, unpriced)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
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
