import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Clock } from '../common/clock';
import { TaskRepository } from './task.repository';

/** Why a task's charge was given back: it failed, it timed out upstream, or the submit was refused. */
export type RefundCause = 'failure' | 'timeout' | 'rejected';

/**
 * Prometheus metrics of the task pipeline. One registry per app instance (tests boot several
 * apps in one process; the global registry would clash).
 */
@Injectable()
export class TaskMetrics {
  readonly registry = new Registry();

  readonly polls = new Counter({
    name: 'gateway_task_polls_total',
    help: 'Upstream task polls by family, channel and outcome',
    labelNames: ['family', 'channel', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly upstreamErrors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Failed upstream calls by family, channel, operation and kind',
    labelNames: ['family', 'channel', 'operation', 'kind'] as const,
    registers: [this.registry],
  });

  readonly refunds = new Counter({
    name: 'gateway_refunds_total',
    help: 'Tasks refunded, by family and cause (failure, timeout, rejected)',
    labelNames: ['family', 'cause'] as const,
    registers: [this.registry],
  });

  readonly pollLatency = new Histogram({
    name: 'gateway_task_poll_seconds',
    help: 'Latency of one upstream poll',
    labelNames: ['family'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor(
    tasks: TaskRepository,
    clock: Clock,
  ) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'gateway_tasks',
      help: 'Tasks by status',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of await tasks.countByStatus()) this.set({ status: row.status }, row.count);
      },
    });
    new Gauge({
      name: 'gateway_task_sync_lag_seconds',
      help: 'Now minus the oldest due poll (0 when nothing is overdue)',
      registers: [this.registry],
      async collect() {
        const now = clock.now();
        const oldest = await tasks.oldestDuePollAt(now);
        this.set(oldest === null ? 0 : (now - oldest) / 1000);
      },
    });
  }
}
