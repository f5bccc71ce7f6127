import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { FamilyRegistry } from '../../families/family-registry';
import { type CallbackResult, ProviderPushMetrics } from '../../metrics/provider-push-metrics';
import { SharedRateLimiters } from '../../shared-state/shared-rate-limiters.service';
import { inTaskSpan } from '../../telemetry/tracing';
import { ChannelsService } from '../../upstream/channels.service';
import type { ProviderCallback, ProviderPush } from '../../upstream/push/provider-push';
import { MIN_READ_GAP_MS } from '../repositories/task-wake.repository';
import { TaskReadRepository } from '../repositories/task-read.repository';
import type { TaskEntity } from '../task.entity';
import { CallbackWakeUps } from './callback-wake-ups';
import { ProviderCallbackLinks } from './provider-callback-links';

/** What the route answers a provider: a status and a small JSON body (never what the task is). */
export interface CallbackAnswer {
  status: number;
  body: unknown;
}

/** A callback as the route received it. */
export interface ReceivedCallback {
  platform: string;
  token: string;
  rawBody: Buffer;
  headers: ProviderCallback['headers'];
}

const RECEIVED: CallbackAnswer = { status: 200, body: { received: true } };
const NOT_FOUND: CallbackAnswer = { status: 404, body: { error: 'not found' } };

/**
 * The one place a provider's callback is taken, for every family (what differs, how it signs, is
 * the family's ProviderPush): the token, then the task and the provider's signature, answered at
 * once; the task is then read at the provider as a poll reads it (CallbackWakeUps). A callback is a
 * wake-up, not a verdict: what it says of the task is never believed, so a forged or replayed one
 * changes nothing and costs at most one read of its task per second.
 */
@Injectable()
export class ProviderCallbackIntake {
  private readonly logger = new Logger('ProviderCallbacks');

  constructor(
    private readonly links: ProviderCallbackLinks,
    private readonly families: FamilyRegistry,
    private readonly tasks: TaskReadRepository,
    private readonly channels: ChannelsService,
    private readonly limiters: SharedRateLimiters,
    private readonly wakeUps: CallbackWakeUps,
    private readonly metrics: ProviderPushMetrics,
    private readonly clock: Clock,
  ) {}

  async receive(callback: ReceivedCallback): Promise<CallbackAnswer> {
    const push = this.families.findAdapter(callback.platform)?.push;
    const taskId = push ? this.links.taskIdOf(callback.token) : null;
    if (!push || !taskId) return this.counted(push ? callback.platform : 'unknown', 'bad_token', NOT_FOUND);
    let body: unknown;
    try {
      body = JSON.parse(callback.rawBody.toString('utf8'));
    } catch {
      return { status: 400, body: { error: 'the body is not JSON' } };
    }
    // MiniMax checks the URL during the create call: the challenge is echoed, nothing is read.
    const handshake = push.handshake?.(body);
    if (handshake !== undefined && handshake !== null) return { status: 200, body: handshake };
    const task = await this.tasks.findByTaskId(taskId);
    if (!task || task.platform !== callback.platform || task.channelId === null)
      return this.counted(callback.platform, 'unknown_task', NOT_FOUND);
    const channelId = task.channelId;
    // In the task's trace: the callback, then (as a poll's span) the read it wakes.
    return inTaskSpan('task.callback', task.taskId, () => this.checkAndWake(callback, push, task, channelId, body));
  }

  private async checkAndWake(
    callback: ReceivedCallback,
    push: ProviderPush,
    task: TaskEntity,
    channelId: number,
    body: unknown,
  ): Promise<CallbackAnswer> {
    if (push.verify) {
      const channel = await this.channels.get(channelId).catch(() => null);
      if (!channel) return this.counted(callback.platform, 'unknown_task', NOT_FOUND);
      const pathAndQuery = new URL(this.links.url(callback.platform, callback.token)).pathname;
      let signed: boolean;
      try {
        signed = await push.verify({ ...callback, body, pathAndQuery, upstreamTaskId: task.upstreamTaskId }, channel);
      } catch (error) {
        // The provider's keys could not be read: it sends again later, and the safety net's poll comes anyway.
        this.logger.warn(`${callback.platform} callback of ${task.taskId} not checked: ${(error as Error)?.message ?? error}`);
        return { status: 503, body: { error: 'try again later' } };
      }
      if (!signed) return this.counted(callback.platform, 'bad_signature', { status: 401, body: { error: 'bad signature' } });
    }
    const now = this.clock.now();
    // One read per task per second across instances (Redis when shared): a later callback's read waits for the next second.
    const decision = await this.limiters.consume('provider-callback-reads', 1, MIN_READ_GAP_MS, String(task.id));
    this.wakeUps.wake(task.id, decision.allowed ? now : now + decision.msBeforeNext);
    return this.counted(callback.platform, decision.allowed ? 'accepted' : 'rate_limited', RECEIVED);
  }

  private counted(platform: string, result: CallbackResult, answer: CallbackAnswer): CallbackAnswer {
    this.metrics.callback(platform, result);
    return answer;
  }
}
