/**
 * Sync benchmark: N family A tasks in flight against a loopback upstream (its own process),
 * steady state, default settings (sync tick 1 s, family A interval 4 s). Reports polls per
 * second, the gap between a task's consecutive polls as a multiple of its interval, the sync lag
 * (now minus the oldest due poll), and database queries per poll.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TaskLeaseRepository } from '../src/tasks/repositories/task-lease.repository';
import { startBenchGateway } from './bench-gateway';
import { insertTasksInFlight } from './bench-tasks';

export interface SyncBenchResult {
  tasks: number;
  database: string;
  intervalMs: number;
  expectedPollsPerSecond: number;
  pollsPerSecond: number;
  gapRatio: { p50: number; p99: number; max: number };
  maxSyncLagMs: number;
  queriesPerPoll: number;
}

const INTERVAL_MS = 4000;

/** Counts SQL statements by wrapping the query runners' `query`. */
function countQueries(dataSource: DataSource): { count: () => number } {
  let count = 0;
  const driver = dataSource.driver as unknown as {
    createQueryRunner: (mode: string) => { query: (...args: unknown[]) => Promise<unknown>; __counted?: boolean };
  };
  const original = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode: string) => {
    const runner = original(mode);
    if (!runner.__counted) {
      const query = runner.query.bind(runner);
      runner.query = (...args: unknown[]) => {
        count++;
        return query(...args);
      };
      runner.__counted = true;
    }
    return runner;
  };
  return { count: () => count };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;

export async function runSyncBench(tasks: number, databaseUrl?: string, measureMs = 3 * INTERVAL_MS): Promise<SyncBenchResult> {
  const gateway = await startBenchGateway(databaseUrl, {}, { max_concurrency: 256 });
  const { app, channel, config } = gateway;
  try {
    const dataSource = app.get(DataSource);
    await insertTasksInFlight(dataSource, channel.id, tasks, INTERVAL_MS);

    // Warm up one interval, then measure.
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS + 1000));
    await fetch(`${gateway.upstreamUrl}/reset`);
    const queries = countQueries(dataSource);
    const repository = app.get(TaskLeaseRepository);
    let maxLag = 0;
    const started = Date.now();
    while (Date.now() - started < measureMs) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const at = Date.now();
      const oldest = await repository.oldestDuePollAt(at);
      if (oldest !== null) maxLag = Math.max(maxLag, at - oldest);
    }
    const elapsed = Date.now() - started;
    const queryCount = queries.count();
    const stats = (await (await fetch(`${gateway.upstreamUrl}/stats`)).json()) as { polls: number; gaps: number[] };
    const ratios = stats.gaps.map((gap) => gap / INTERVAL_MS).sort((a, b) => a - b);
    const lagQueries = Math.ceil(measureMs / 250);
    return {
      tasks,
      database: config.database.kind,
      intervalMs: INTERVAL_MS,
      expectedPollsPerSecond: tasks / (INTERVAL_MS / 1000),
      pollsPerSecond: Math.round((stats.polls / elapsed) * 1000),
      // No second poll of any task within the window means the sync fell a whole interval behind.
      gapRatio: ratios.length
        ? { p50: round(percentile(ratios, 0.5)), p99: round(percentile(ratios, 0.99)), max: round(ratios[ratios.length - 1]) }
        : { p50: Infinity, p99: Infinity, max: Infinity },
      maxSyncLagMs: maxLag,
      queriesPerPoll: round((queryCount - lagQueries) / Math.max(1, stats.polls)),
    };
  } finally {
    await gateway.stop();
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
