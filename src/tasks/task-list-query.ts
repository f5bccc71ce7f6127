import type { TaskStatus } from './task-status';

/** The task lists' orders: a field ascending, or descending with a leading '-'. */
export const TASK_SORT_KEYS = ['created_at', '-created_at', 'status', '-status', 'model', '-model', 'cost', '-cost'] as const;
export type TaskSort = (typeof TASK_SORT_KEYS)[number];

export interface TaskListQuery {
  userId?: number;
  /** A task id (exact or its beginning) or words of the prompt (case-insensitive). */
  q?: string;
  sort?: TaskSort;
  status?: TaskStatus[];
  model?: string;
  /** Leave out tasks their owner deleted (what the customer console shows). */
  excludeDeleted?: boolean;
  page: number;
  pageSize: number;
}
