/**
 * Providers that push, benchmarked: N Kling tasks in flight against a lean Kling upstream (its own
 * process), with push off (`settings.push: false`: polls every 10 s, Kling's default) and on (polls
 * as the safety net, PROVIDER_PUSH_POLL_MS, 60 s by default). Reports the upstream reads per second
 * each costs in steady state, measured over one full interval of each. No task ends here, so no
 * callback arrives: push adds one read per task when its provider calls back at its end.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TaskEntity } from '../src/tasks/task.entity';
import { ChannelsService } from '../src/upstream/channels.service';
import { startBenchGateway } from './bench-gateway';
import { startBenchServer } from './upstream-process';

export interface PushBenchResult {
  tasks: number;
  database: string;
  push: boolean;
  intervalMs: number;
  readsPerSecond: number;
  expectedReadsPerSecond: number;
}

const KLING_INTERVAL_MS = 10_000;

export async function runPushBench(tasks: number, push: boolean, databaseUrl?: string): Promise<PushBenchResult> {
  const upstream = await startBenchServer('kling-upstream-server.ts');
  // PUBLIC_BASE_URL set: push is on for every channel that does not say `push: false`.
  const gateway = await startBenchGateway(databaseUrl, { PUBLIC_BASE_URL: 'http://127.0.0.1:1' });
  try {
    const { app, config } = gateway;
    const channel = await app.get(ChannelsService).create(
      {
        name: 'bench-kling',
        platform: 'kling',
        baseUrl: upstream.url,
        apiKey: 'bench-access:bench-secret',
        models: ['kling-v2-5-turbo'],
        settings: { max_concurrency: 256, push },
      },
      true,
    );
    const intervalMs = push ? Math.max(config.providerPushPollMs, KLING_INTERVAL_MS) : KLING_INTERVAL_MS;
    await insertKlingTasks(app.get(DataSource), channel.id, tasks, intervalMs);
    await fetch(`${upstream.url}/reset`);
    const started = Date.now();
    // One full interval: every task is read once in it, whatever the interval.
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const { reads } = (await (await fetch(`${upstream.url}/stats`)).json()) as { reads: number };
    const elapsed = Date.now() - started;
    return {
      tasks,
      database: config.database.kind,
      push,
      intervalMs,
      readsPerSecond: Math.round((reads / elapsed) * 1000),
      expectedReadsPerSecond: Math.round(tasks / (intervalMs / 1000)),
    };
  } finally {
    await gateway.stop();
    upstream.stop();
  }
}

/** Kling tasks in flight (IN_PROGRESS), their next polls spread evenly over one interval (steady state). */
async function insertKlingTasks(dataSource: DataSource, channelId: number, tasks: number, intervalMs: number): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: tasks }, (_, i) => ({
    taskId: `task_push${String(i).padStart(28, '0')}`,
    userId: 1,
    group: 'default',
    platform: 'kling',
    model: 'kling-v2-5-turbo',
    upstreamModel: 'kling-v2-5-turbo',
    action: 'generate',
    channelId,
    upstreamTaskId: String(800_000_000 + i),
    status: 'IN_PROGRESS' as const,
    progress: 10,
    quota: 0,
    request: { endpoint: 'text2video', prompt: 'bench', duration: 5, mode: 'std', extra: {} },
    submitTime: now,
    startTime: now,
    nextPollAt: now + Math.floor((i / tasks) * intervalMs),
    pollFailures: 0,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await dataSource
      .createQueryBuilder()
      .insert()
      .into(TaskEntity)
      .values(rows.slice(i, i + 500))
      .execute();
}
