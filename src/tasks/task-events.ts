import type { TaskEventKind } from './task-event.entity';

/** One state change of a task, for its timeline (TaskStateRepository.recordEvent). */
export interface TaskEventInput {
  /** `tasks.id`. */
  taskRowId: number;
  kind: TaskEventKind;
  status?: string | null;
  progress?: number | null;
  detail?: string | null;
  at: number;
}

/** Progress is recorded at each quarter it passes (25, 50, 75), not at every poll. */
export const PROGRESS_STEP = 25;

export const passesProgressStep = (before: number, after: number): boolean =>
  after < 100 && Math.floor(after / PROGRESS_STEP) > Math.floor(before / PROGRESS_STEP);
