import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../common/runtime/clock';
import type { AppConfig } from '../config/app-config';
import { JobMetrics } from '../jobs/job-metrics.service';
import { JobContext } from '../jobs/job-context';
import { JobRunner } from '../jobs/job-runner.service';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { HousekeepingStats } from './housekeeping-stats.service';
import { HousekeepingSweeps } from './housekeeping-sweeps';
import { HousekeepingJob, SWEEP_BATCH } from './housekeeping.job';

/** A table of `rows` expired rows that a sweep deletes a batch at a time. */
const table = (name: string, rows: number) => {
  const state = { left: rows, calls: 0 };
  return {
    state,
    sweep: {
      table: name,
      sweep: (_now: number, limit: number) => {
        state.calls++;
        const removed = Math.min(limit, state.left);
        state.left -= removed;
        return Promise.resolve({ rows: removed, bytes: removed * 10 });
      },
    },
  };
};

describe('HousekeepingJob', () => {
  const setUp = () => {
    const registry = new MetricsRegistry();
    const sweeps = new HousekeepingSweeps();
    const stats = new HousekeepingStats(registry);
    const clock = new Clock();
    const runner = new JobRunner(new JobMetrics(registry), new SchedulerRegistry(), clock);
    const job = new HousekeepingJob(sweeps, stats, new JobContext({ taskSyncIntervalMs: 0 } as AppConfig, 'instance-a', clock, runner));
    return { sweeps, stats, job };
  };

  it('asks every sweep each round, batch after batch until one comes back short, and counts rows and bytes', async () => {
    const { sweeps, stats, job } = setUp();
    const sessions = table('console_sessions', 3);
    const deliveries = table('webhook_deliveries', 2 * SWEEP_BATCH + 7);
    sweeps.register(sessions.sweep);
    sweeps.register(deliveries.sweep);
    expect(await job.sweepNow()).toBe(2);
    expect(sessions.state).toEqual({ left: 0, calls: 1 });
    expect(deliveries.state).toEqual({ left: 0, calls: 3 });
    expect(stats.totals()).toEqual({ rows: 2 * SWEEP_BATCH + 10, bytes: (2 * SWEEP_BATCH + 10) * 10, tasks: 0 });
  });

  it('leaves a large backlog for the next rounds instead of sweeping one table forever', async () => {
    const { sweeps, job } = setUp();
    const stats = table('upstream_call_stats', 100 * SWEEP_BATCH);
    sweeps.register(stats.sweep);
    await job.sweepNow();
    expect(stats.state.calls).toBe(20);
    expect(stats.state.left).toBe(80 * SWEEP_BATCH);
  });

  it('refuses a second sweep of the same table', () => {
    const { sweeps } = setUp();
    sweeps.register(table('portrait_uploads', 0).sweep);
    expect(() => sweeps.register(table('portrait_uploads', 0).sweep)).toThrow(/registered twice/);
  });
});
