/**
 * Internal task states. The unified form shows them as they are; the flat form folds them.
 * SUBMITTING: recorded and charged, upstream call not confirmed yet (crash-safe submit).
 * REJECTED: the upstream refused the submit; the charge was reverted and the client never got the id.
 */
export type TaskStatus = 'SUBMITTING' | 'NOT_START' | 'QUEUED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE' | 'REJECTED';

export type FlatStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

export const TERMINAL_STATUSES: TaskStatus[] = ['SUCCESS', 'FAILURE', 'REJECTED'];
/** States whose charge stands: the provider accepted the task and it did not fail (a failure is refunded, a refused submit released, a submit still only holds). */
export const CHARGED_STATUSES: TaskStatus[] = ['NOT_START', 'QUEUED', 'IN_PROGRESS', 'SUCCESS'];
/** States the sync job polls upstream. */
export const POLLABLE_STATUSES: TaskStatus[] = ['NOT_START', 'QUEUED', 'IN_PROGRESS'];

const RANK: Record<TaskStatus, number> = {
  SUBMITTING: 0,
  NOT_START: 1,
  QUEUED: 2,
  IN_PROGRESS: 3,
  SUCCESS: 4,
  FAILURE: 4,
  REJECTED: 4,
};

export const isTerminal = (status: TaskStatus): boolean => TERMINAL_STATUSES.includes(status);

/** Only forward moves: waiting -> in progress -> terminal; terminal states are final. */
export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  if (isTerminal(from)) return false;
  if (to === 'REJECTED') return from === 'SUBMITTING';
  return RANK[to] > RANK[from] || (isTerminal(to) && from !== to);
}

export function toFlatStatus(status: TaskStatus): FlatStatus {
  switch (status) {
    case 'IN_PROGRESS':
      return 'in_progress';
    case 'SUCCESS':
      return 'completed';
    case 'FAILURE':
    case 'REJECTED':
      return 'failed';
    default:
      return 'queued';
  }
}
