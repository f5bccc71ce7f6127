import { toUnixSeconds } from '../common/runtime/clock';
import type { TaskEntity } from './task.entity';
import { FlatStatus, toFlatStatus } from './task-status';

/** What both surfaces answer a submit with: the same for every family. */
export interface SubmittedTaskView {
  id: string;
  task_id: string;
  object: 'video';
  model: string;
  status: FlatStatus;
  progress: number;
  created_at: number;
}

export function toSubmittedTask(task: TaskEntity): SubmittedTaskView {
  return {
    id: task.taskId,
    task_id: task.taskId,
    object: 'video',
    model: task.model,
    status: toFlatStatus(task.status),
    progress: task.progress,
    created_at: toUnixSeconds(task.createdAt),
  };
}
