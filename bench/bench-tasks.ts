import type { DataSource } from 'typeorm';
import { TaskEntity } from '../src/tasks/task.entity';

/** Upstream id of the first task: the lean upstream's video ids are `FIRST_VIDEO_ID + i`. */
export const FIRST_VIDEO_ID = 100_000;

/**
 * Inserts `tasks` family A tasks in flight (IN_PROGRESS, upstream ids from FIRST_VIDEO_ID), their
 * next polls spread evenly over one interval (steady state).
 */
export async function insertTasksInFlight(dataSource: DataSource, channelId: number, tasks: number, intervalMs: number): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: tasks }, (_, i) => ({
    taskId: `task_bench${String(i).padStart(27, '0')}`,
    userId: 1,
    apiKeyId: null,
    group: 'default',
    platform: 'alpha' as const,
    model: 'alpha/v6',
    upstreamModel: 'v6',
    action: 'textGenerate',
    channelId,
    upstreamTaskId: String(FIRST_VIDEO_ID + i),
    status: 'IN_PROGRESS' as const,
    progress: 10,
    quota: 0,
    request: { prompt: 'bench' },
    properties: null,
    upstreamResponse: null,
    resultUrl: null,
    outputSize: null,
    failReason: null,
    submitTime: now,
    startTime: now,
    finishTime: null,
    nextPollAt: now + Math.floor((i / tasks) * intervalMs),
    leaseOwner: null,
    leaseUntil: null,
    pollFailures: 0,
    idempotencyKey: null,
    requestHash: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    // The gateway's jobs already run: on MySQL a batch may be picked as a deadlock victim; insert it again.
    for (let attempt = 1; ; attempt++) {
      try {
        await dataSource
          .createQueryBuilder()
          .insert()
          .into(TaskEntity)
          .values(rows.slice(i, i + 500) as never)
          .execute();
        break;
      } catch (error) {
        if (attempt >= 5 || !/Deadlock/i.test(String(error))) throw error;
      }
    }
  }
}
