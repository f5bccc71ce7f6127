import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Clock } from '../common/runtime/clock';
import { ReadThroughCache } from '../common/runtime/read-through-cache';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { TaskStatsRepository } from './repositories/task-stats.repository';

/** One count query serves both gauges and every scrape within this long (Prometheus and a dashboard may scrape at once). */
const SNAPSHOT_TTL_MS = 2000;

/**
 * `gateway_tasks_in_flight{state, platform}` and `gateway_task_oldest_in_flight_seconds`: the tasks
 * not ended, counted in the database so that every instance reports the same truth. A series once
 * seen stays, at 0, when its tasks have all ended (a graph falls to 0 instead of stopping).
 */
@Injectable()
export class InFlightMetrics {
  constructor(registry: MetricsRegistry, tasks: TaskStatsRepository, clock: Clock) {
    const snapshots = new ReadThroughCache<Awaited<ReturnType<TaskStatsRepository['inFlight']>>>(SNAPSHOT_TTL_MS);
    const snapshot = () => snapshots.get('in-flight', () => tasks.inFlight());
    const seen = new Map<string, { state: string; platform: string }>();
    new Gauge({
      name: 'gateway_tasks_in_flight',
      help: 'Tasks not ended (SUBMITTING, NOT_START, QUEUED, IN_PROGRESS), by state and platform, read from the database',
      labelNames: ['state', 'platform'] as const,
      registers: [registry],
      async collect() {
        const rows = await snapshot();
        for (const labels of seen.values()) this.set(labels, 0);
        for (const row of rows) {
          const labels = { state: row.status, platform: row.platform };
          seen.set(`${row.status}\n${row.platform}`, labels);
          this.set(labels, row.count);
        }
      },
    });
    new Gauge({
      name: 'gateway_task_oldest_in_flight_seconds',
      help: 'Age of the oldest task not ended (0 when none is in flight)',
      registers: [registry],
      async collect() {
        const rows = await snapshot();
        const oldest = rows.length ? Math.min(...rows.map((row) => row.oldestCreatedAt)) : null;
        this.set(oldest === null ? 0 : Math.max(0, clock.now() - oldest) / 1000);
      },
    });
  }
}
