import { Injectable } from '@nestjs/common';
import type { ChannelEntity } from '../upstream/channel.entity';
import {
  CancellableState,
  cancellableStates,
  PollOutcome,
  UpstreamAdapter,
  UpstreamError,
  UpstreamState,
} from '../upstream/upstream-adapter';
import { UpstreamCallRecorder } from '../upstream/upstream-call-recorder.service';
import type { TaskEntity } from './task.entity';
import { ProviderReads } from './push/provider-reads';

/** How the provider answered a cancel it was sent. */
export type CancelAnswer =
  /** It stopped the task. */
  | 'accepted'
  /** It said no (too late, say): its own state decides what becomes of the task. */
  | 'refused'
  /** It said not now (rate limited): nothing was cancelled. */
  | 'busy'
  /** No usable answer (a timeout, a 5xx): whether it stopped the task is unknown. */
  | 'unanswered';

/**
 * The shared way to cancel a task at its provider, for every family with a cancel: read the task's
 * state there first, and send the cancel only while that state is one the provider stops. Runway's
 * and family C's cancel of a finished task deletes it, so a cancel judged from the gateway's last
 * poll could destroy a video the provider already made (and that the operator pays for).
 */
@Injectable()
export class ProviderCancel {
  constructor(
    private readonly calls: UpstreamCallRecorder,
    private readonly reads: ProviderReads,
  ) {}

  /** Whether the family's provider stops a task in this state (never where the family has no cancel). */
  stops(adapter: UpstreamAdapter, state: UpstreamState): boolean {
    return cancellableStates(adapter).includes(state as CancellableState);
  }

  /**
   * The task as its provider has it now (a poll, counted in the channel's call statistics, and, for a
   * task in flight, as a provider read for `reason`); throws when it cannot be read.
   */
  async read(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter, reason?: 'deadline' | 'cancel'): Promise<PollOutcome> {
    if (reason) this.reads.counted(task.platform, reason);
    return this.counted(channel, () => adapter.poll(task, channel));
  }

  /** Sends the cancel; call only right after `read` found the task in a state the provider `stops`. */
  async send(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter): Promise<CancelAnswer> {
    try {
      await this.counted(channel, () => adapter.cancel!(task, channel));
      return 'accepted';
    } catch (error) {
      return answerOf(error);
    }
  }

  /** Best effort, for a job the gateway no longer wants (its task was cancelled while the provider accepted it): stops it where the provider still can. */
  async stopIfRunning(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter): Promise<CancelAnswer | 'not_sent'> {
    const outcome = await this.read(task, channel, adapter, 'cancel');
    return this.stops(adapter, outcome.state) ? this.send(task, channel, adapter) : 'not_sent';
  }

  private async counted<T>(channel: ChannelEntity, call: () => Promise<T>): Promise<T> {
    const endCall = this.calls.start(channel.id);
    try {
      const result = await call();
      endCall(false);
      return result;
    } catch (error) {
      endCall(true);
      throw error;
    }
  }
}

function answerOf(error: unknown): CancelAnswer {
  if (!(error instanceof UpstreamError) || error.kind === 'transient') return 'unanswered';
  return error.kind === 'backpressure' ? 'busy' : 'refused';
}

/** The provider does not know the task (HTTP 404): after a cancel was sent to it, the cancel took it away. */
export function isUnknownTask(error: unknown): boolean {
  return error instanceof UpstreamError && error.details.httpStatus === 404;
}
