import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { TransactionRunner } from '../../database/transaction-runner';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { sanitizeProviderText } from '../../upstream/provider-text';
import type { UpstreamError } from '../../upstream/upstream-adapter';
import type { TaskEntity } from '../task.entity';
import { TaskStateRepository } from '../repositories/task-state.repository';

/** How a task's timeline names a channel: `channel #3 (primary)`. */
export const channelNamed = (channel: Pick<ChannelEntity, 'id' | 'name'>): string => `channel #${channel.id} (${channel.name})`;

/** A failed attempt's detail: `channel #3 (primary) failed: transient: ...`. */
export function failedAttemptDetail(channel: Pick<ChannelEntity, 'id' | 'name'>, error: UpstreamError): string {
  const kept = error.details.mayHaveBeenAccepted ? ' (may have been accepted: not sent elsewhere)' : '';
  return `${channelNamed(channel)} failed: ${error.kind}: ${sanitizeProviderText(error.message, [], 160)}${kept}`;
}

/**
 * The submit's attempts in the task's timeline (admin task detail): each channel that failed it, in
 * order; the one that took it is named by the `submitted` entry (SubmitSettlement).
 */
@Injectable()
export class SubmitAttempts {
  private readonly logger = new Logger('TaskSubmit');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskStateRepository,
    private readonly clock: Clock,
  ) {}

  /** Best effort: the submit goes on without its timeline entry. */
  failed(task: TaskEntity, channel: ChannelEntity, error: UpstreamError): Promise<void> {
    return this.record(task, channel, failedAttemptDetail(channel, error));
  }

  /** A candidate on a platform whose family refuses the request: passed over, never sent. */
  skipped(task: TaskEntity, channel: ChannelEntity): Promise<void> {
    return this.record(task, channel, `${channelNamed(channel)} passed over: its platform's rules refuse this request`);
  }

  private async record(task: TaskEntity, channel: ChannelEntity, detail: string): Promise<void> {
    const event = { taskRowId: task.id, kind: 'attempt' as const, status: 'SUBMITTING', detail, at: this.clock.now() };
    await this.transactions
      .runStatement((manager) => this.tasks.recordEvent(manager, event))
      .catch((failure: unknown) => this.logger.warn(`attempt of ${task.taskId} on channel ${channel.id} not recorded: ${failure}`));
  }
}
