import type { TaskEntity } from '../task.entity';
import { isTerminal } from '../task-status';

/** Why a task ends whose provider retry a crash cut off where its new provider might not de-duplicate it. */
export const RETRY_INTERRUPTED = 'generation failed: the resubmit on another channel was interrupted';

/**
 * The provider failed the task for its own reason and it is being submitted again (ProviderRetry):
 * running for its client, charged, without a provider id until a channel takes it.
 */
export function isBeingResubmitted(task: Pick<TaskEntity, 'status' | 'upstreamTaskId' | 'providerRetries'>): boolean {
  return !isTerminal(task.status) && task.status !== 'SUBMITTING' && task.upstreamTaskId === null && task.providerRetries > 0;
}
