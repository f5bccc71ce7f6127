/**
 * Webhook benchmark: 10,000 family A tasks in flight that all end within one minute (the lean
 * upstream reports each finished at a random moment of that minute), with 3 endpoints on the
 * account, one of which never answers. Reports the delivery latency (task end to arrival) at the
 * two healthy endpoints, and the task sync's cadence (poll gap / interval, sync lag) next to the
 * same run without webhooks.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TaskLeaseRepository } from '../src/tasks/repositories/task-lease.repository';
import { WebhookEndpointsService } from '../src/webhooks/webhook-endpoints.service';
import { startBenchGateway } from './bench-gateway';
import { FIRST_VIDEO_ID, insertTasksInFlight } from './bench-tasks';
import { startBenchServer } from './upstream-process';

export interface WebhookBenchResult {
  webhooks: boolean;
  tasks: number;
  database: string;
  /** How long until every task had ended. */
  endedWithinMs: number;
  gapRatio: { p50: number; p99: number; max: number };
  maxSyncLagMs: number;
  pollsPerSecond: number;
  /** Task end (finish_time) to arrival at the healthy endpoints. */
  deliveryMs?: { count: number; p50: number; p99: number; max: number };
  /** Attempts the hanging endpoint received (each held 10 s). */
  hangingAttempts?: number;
}

const INTERVAL_MS = 4000;
const FINISH_OVER_MS = 60_000;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;
const round = (value: number) => Math.round(value * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runWebhookBench(webhooks: boolean, tasks = 10_000, databaseUrl?: string): Promise<WebhookBenchResult> {
  const gateway = await startBenchGateway(databaseUrl, { WEBHOOK_DELIVERY_INTERVAL_MS: '1000' }, { max_concurrency: 256 });
  const receivers = await startBenchServer('webhook-receiver-server.ts');
  const { app, channel, config } = gateway;
  try {
    const dataSource = app.get(DataSource);
    // The two runs share BENCH_DATABASE_URL (a bench database): each starts from empty tables.
    for (const table of ['webhook_deliveries', 'webhook_events', 'webhook_endpoints', 'tasks'])
      await dataSource.query(`DELETE FROM ${table}`);
    if (webhooks) {
      for (const path of ['/a', '/b', '/hang']) await app.get(WebhookEndpointsService).create(1, `${receivers.url}${path}`, undefined);
    }
    await insertTasksInFlight(dataSource, channel.id, tasks, INTERVAL_MS);
    // One interval of steady polling, then every task ends at a random moment of the next minute.
    await sleep(INTERVAL_MS + 1000);
    await fetch(`${gateway.upstreamUrl}/reset`);
    const started = Date.now();
    await fetch(`${gateway.upstreamUrl}/finish?from=${FIRST_VIDEO_ID}&count=${tasks}&over=${FINISH_OVER_MS}`, { method: 'POST' });
    const repository = app.get(TaskLeaseRepository);
    let maxLag = 0;
    let endedAt = 0;
    let measuredPolls = 0;
    let gaps: number[] = [];
    const deadline = started + FINISH_OVER_MS + 120_000;
    while (Date.now() < deadline) {
      await sleep(250);
      const at = Date.now();
      const oldest = await repository.oldestDuePollAt(at);
      if (oldest !== null) maxLag = Math.max(maxLag, at - oldest);
      if (!endedAt) {
        const [{ remaining }] = await dataSource.query("SELECT COUNT(*) AS remaining FROM tasks WHERE status = 'IN_PROGRESS'");
        if (Number(remaining) === 0) {
          endedAt = at;
          // The cadence is measured while tasks were in flight.
          const stats = (await (await fetch(`${gateway.upstreamUrl}/stats`)).json()) as { polls: number; gaps: number[] };
          measuredPolls = stats.polls;
          gaps = stats.gaps;
          if (!webhooks) break;
        }
      }
      if (endedAt && webhooks) {
        const { arrivals } = (await (await fetch(`${receivers.url}/stats`)).json()) as { arrivals: Record<string, unknown[]> };
        if (arrivals['/a'].length >= tasks && arrivals['/b'].length >= tasks) break;
      }
    }
    const ratios = gaps.map((gap) => gap / INTERVAL_MS).sort((a, b) => a - b);
    const result: WebhookBenchResult = {
      webhooks,
      tasks,
      database: config.database.kind,
      endedWithinMs: endedAt ? endedAt - started : -1,
      gapRatio: { p50: round(percentile(ratios, 0.5)), p99: round(percentile(ratios, 0.99)), max: round(ratios[ratios.length - 1] ?? 0) },
      maxSyncLagMs: maxLag,
      pollsPerSecond: Math.round((measuredPolls / Math.max(1, endedAt - started)) * 1000),
    };
    if (webhooks) {
      const finished = new Map<string, number>(
        (await dataSource.query('SELECT task_id, finish_time FROM tasks')).map((row: { task_id: string; finish_time: string | number }) => [
          row.task_id,
          Number(row.finish_time),
        ]),
      );
      const { arrivals, hanging } = (await (await fetch(`${receivers.url}/stats`)).json()) as {
        arrivals: Record<string, Array<[string, number]>>;
        hanging: number;
      };
      const latencies = [...arrivals['/a'], ...arrivals['/b']]
        .map(([taskId, at]) => at - (finished.get(taskId) ?? at))
        .sort((a, b) => a - b);
      result.deliveryMs = {
        count: latencies.length,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: latencies[latencies.length - 1] ?? 0,
      };
      result.hangingAttempts = hanging;
    }
    return result;
  } finally {
    await gateway.stop();
    receivers.stop();
  }
}
