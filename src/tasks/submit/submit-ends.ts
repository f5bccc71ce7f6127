import type { ChannelEntity } from '../../upstream/channel.entity';
import type { SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import type { TaskEntity } from '../task.entity';
import type { TaskStatus } from '../task-status';

/**
 * How a hand-over to the provider ends (HandToProvider): for a task's first submit (its client still
 * waits, its charge held) or for a provider retry (ProviderRetry: the client sees it running, its
 * charge stands). Moderation ends both the same way: failed and refunded.
 */
export interface SubmitEnds {
  /** The task's status while it is handed over; every write of the hand-over is a compare-and-set on it and the lease. */
  readonly status: TaskStatus;
  /** A provider took it. */
  accepted(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter, outcome: SubmitOutcome, owner: string): Promise<TaskEntity>;
  /** A provider refused the client's input. */
  refusedInput(task: TaskEntity, error: UpstreamError, owner: string): Promise<TaskEntity>;
  /** No candidate took it (`backpressure`: the last limit a provider answered with). */
  noneAccepted(task: TaskEntity, lastError: UpstreamError | null, backpressure: UpstreamError | null, owner: string): Promise<TaskEntity>;
  /** The hand-over itself crashed (not an upstream error): the task ends; returns what to throw. */
  crashed(task: TaskEntity, error: unknown, owner: string): Promise<unknown>;
  /** The hand-over lost the task's lease (taken over): whoever has it decides; `upstreamTaskId` when a provider had taken it. */
  lost(task: TaskEntity, upstreamTaskId?: string): Promise<TaskEntity>;
}
