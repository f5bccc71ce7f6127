import type { UpstreamAdapter } from '../upstream/upstream-adapter';
import type { TaskEntity } from './task.entity';

/** A running task's progress estimated from the time it has run, for providers that report none (never past 95). */
export function estimatedProgress(task: TaskEntity, adapter: UpstreamAdapter, now: number): number {
  const elapsed = now - (task.submitTime ?? task.createdAt);
  return Math.min(95, (elapsed / adapter.expectedDurationMs) * 100);
}
