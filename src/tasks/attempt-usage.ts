import type { ProviderUsage } from '../upstream/upstream-adapter';
import type { TaskEntity } from './task.entity';

/**
 * A provider's report of its own cost, against the attempt that made it: the task's provider retries
 * while the attempt ran (0 for the first provider) and the channel that was asked. Kept per attempt,
 * so a retried task's first channel keeps its figure and a read of one channel never counts for another.
 */
export interface AttemptUsage {
  taskRowId: number;
  attempt: number;
  channelId: number;
  usage: ProviderUsage;
  at: number;
}

/**
 * The report of `usage` by the attempt `task` describes, as the caller read it (a poll's or cancel's
 * copy of the task names the channel it asked, even if the task moved on since); none without a usage or a channel.
 */
export function attemptUsageOf(
  task: Pick<TaskEntity, 'id' | 'providerRetries' | 'channelId'>,
  usage: ProviderUsage | null | undefined,
  at: number,
  channelId: number | null = task.channelId,
): AttemptUsage | null {
  if (!usage || channelId === null) return null;
  return { taskRowId: task.id, attempt: task.providerRetries, channelId, usage, at };
}
