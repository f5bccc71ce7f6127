import type { TaskEntity } from '../task.entity';

/** What a task's customer sees of its progress while its video is stored and settled. */
const SETTLING_PROGRESS = 99;

/**
 * Whether the provider is done but the task is not completed for its customer yet: its video is
 * still to be stored and settled (a task read without `settled_at` counts as settled).
 */
export const isSettling = (task: Pick<TaskEntity, 'status' | 'settledAt'>): boolean => task.status === 'SUCCESS' && task.settledAt === null;

/**
 * A task as its customer's answers show it: one whose provider is done but whose video is still to
 * be stored and settled is still in progress (99%, no link, no finish time, no usage), so every
 * answer that says completed carries the final charge.
 */
export function asCustomerSees(task: TaskEntity): TaskEntity {
  if (!isSettling(task)) return task;
  return { ...task, status: 'IN_PROGRESS', progress: Math.min(task.progress, SETTLING_PROGRESS), finishTime: null };
}
