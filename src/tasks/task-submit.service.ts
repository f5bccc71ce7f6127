import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { UserEntity } from '../auth/user.entity';
import { LedgerService } from '../billing/ledger.service';
import { PricingService, QuoteRequest } from '../billing/pricing.service';
import { AppError, ErrorCode } from '../common/app-error';
import { Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { newTaskId } from '../common/random-id';
import { isUniqueViolation, TransactionRunner } from '../database/transaction-runner';
import { ChannelRouter, upstreamModelFor } from '../upstream/channel-router.service';
import { ChannelEntity, Platform } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { UpstreamAdapter, UpstreamError } from '../upstream/upstream-adapter';
import { UpstreamAdapterRegistry } from '../upstream/upstream-adapter.registry';
import { INSTANCE_ID } from './instance-id';
import { TaskEntity } from './task.entity';
import { TaskRepository } from './task.repository';
import { TaskTransitionsService } from './task-transitions.service';

/** A validated request, ready to be priced, recorded and sent upstream. */
export interface TaskDraft {
  platform: Platform;
  model: string;
  action: string;
  /** What the family adapter needs to build the upstream call. */
  request: Record<string, unknown>;
  properties?: Record<string, unknown>;
  quote: Omit<QuoteRequest, 'group'>;
  /** Idempotency-Key header: the same key and body within 24 h return the first task. */
  idempotencyKey?: string;
  /** Only these channels may run the task (e.g. the provider account holding its verified assets). */
  channelIds?: number[];
}

export interface Caller {
  user: UserEntity;
  apiKey?: ApiKeyEntity | null;
}

const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
const MODERATION_FAILURE = 'content moderation failed';

/**
 * Submits a task crash-safely: (1) price it, charge it and record it as SUBMITTING in one
 * transaction; (2) call the upstream, trying the next channel on channel trouble; (3) mark it
 * submitted, or reject it and revert the charge. A crash between (1) and (3) leaves a SUBMITTING
 * task whose lease runs out; the sync job settles it.
 */
@Injectable()
export class TaskSubmitService {
  private readonly logger = new Logger('TaskSubmit');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly ledger: LedgerService,
    private readonly pricing: PricingService,
    private readonly router: ChannelRouter,
    private readonly channels: ChannelsService,
    private readonly adapters: UpstreamAdapterRegistry,
    private readonly clock: Clock,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async submit(draft: TaskDraft, caller: Caller): Promise<TaskEntity> {
    const requestHash = hashDraft(draft);
    if (draft.idempotencyKey) {
      const earlier = await this.findIdempotent(caller.user.id, draft.idempotencyKey, requestHash);
      if (earlier) return earlier;
    }
    const adapter = this.adapters.get(draft.platform);
    const routed = await this.router.candidates(draft.platform, draft.model, caller.user.group);
    const candidates = draft.channelIds ? routed.filter((channel) => draft.channelIds!.includes(channel.id)) : routed;
    if (candidates.length === 0) throw new AppError(ErrorCode.ServiceUnavailable, `no available channel for model ${draft.model}`);
    const quote = await this.pricing.quote({ ...draft.quote, group: caller.user.group });

    let task: TaskEntity;
    try {
      task = await this.record(draft, caller, candidates[0], adapter, quote.quota, quote.detail, requestHash);
    } catch (error) {
      if (draft.idempotencyKey && isUniqueViolation(error)) {
        // A concurrent request with the same key won the race; its task is the answer.
        const winner = await this.findIdempotent(caller.user.id, draft.idempotencyKey, requestHash);
        if (winner) return winner;
      }
      throw error;
    }
    return this.sendUpstream(task, candidates, adapter);
  }

  /** Step (2) and (3); also used to resubmit a task whose first attempt was interrupted. */
  async sendUpstream(task: TaskEntity, candidates: ChannelEntity[], adapter: UpstreamAdapter): Promise<TaskEntity> {
    let lastError: UpstreamError | null = null;
    let backpressure: UpstreamError | null = null;
    for (const channel of candidates) {
      if (task.channelId !== channel.id) {
        const upstreamModel = upstreamModelFor(channel, task.model, adapter.defaultUpstreamModel(task.model));
        await this.transactions.runStatement((manager) =>
          this.tasks.compareAndSet(manager, task.id, 'SUBMITTING', { channelId: channel.id, upstreamModel }),
        );
        Object.assign(task, { channelId: channel.id, upstreamModel });
      }
      try {
        const outcome = await adapter.submit(task, channel);
        await this.channels.recordOutcome(channel.id, null);
        return await this.markSubmitted(task, channel, adapter, outcome.upstreamTaskId, outcome.requestPatch);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw await this.rejectAfter(task, error);
        lastError = error;
        this.logger.warn(`submit of ${task.taskId} on channel ${channel.id} failed (${error.kind}): ${error.message}`);
        if (error.kind === 'moderation') {
          // Accepted, then failed by the provider's moderation: the client gets the task, failed and refunded.
          await this.channels.recordOutcome(channel.id, null);
          await this.transitions.fail(task, MODERATION_FAILURE);
          return task;
        }
        if (error.kind === 'invalid_input') {
          await this.channels.recordOutcome(channel.id, null);
          await this.transitions.reject(task, error.message);
          throw AppError.invalid(`upstream rejected the request: ${error.message}`);
        }
        await this.channels.recordOutcome(channel.id, `${error.kind}: ${error.message}`);
        if (error.kind === 'backpressure') backpressure = error;
      }
    }
    await this.transitions.reject(task, lastError?.message ?? 'no channel accepted the task');
    if (backpressure) {
      throw new AppError(ErrorCode.RateLimited, 'upstream concurrency limit reached, retry later', {
        retryAfterSeconds: backpressure.details.retryAfterSeconds ?? 10,
      });
    }
    throw new AppError(ErrorCode.ServiceUnavailable, 'upstream channel unavailable, retry later', { retryAfterSeconds: 30 });
  }

  private async record(
    draft: TaskDraft,
    caller: Caller,
    channel: ChannelEntity,
    adapter: UpstreamAdapter,
    quota: number,
    quoteDetail: string,
    requestHash: string,
  ): Promise<TaskEntity> {
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const task = manager.create(TaskEntity, {
        taskId: newTaskId(),
        userId: caller.user.id,
        apiKeyId: caller.apiKey?.id ?? null,
        group: caller.user.group,
        platform: draft.platform,
        model: draft.model,
        upstreamModel: upstreamModelFor(channel, draft.model, adapter.defaultUpstreamModel(draft.model)),
        action: draft.action,
        channelId: channel.id,
        upstreamTaskId: null,
        status: 'SUBMITTING',
        progress: 0,
        quota,
        request: draft.request,
        properties: draft.properties ?? null,
        upstreamResponse: null,
        resultUrl: null,
        outputSize: null,
        failReason: null,
        submitTime: null,
        startTime: null,
        finishTime: null,
        // Until the submit finishes the task is leased to this instance; if it dies, the sync job settles it.
        nextPollAt: now + this.config.taskLeaseMs,
        leaseOwner: this.instanceId,
        leaseUntil: now + this.config.taskLeaseMs,
        pollFailures: 0,
        idempotencyKey: draft.idempotencyKey ?? null,
        requestHash,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(TaskEntity, task as QueryDeepPartialEntity<TaskEntity>);
      if (quota > 0) {
        await this.ledger.chargeIfEnough(manager, {
          userId: caller.user.id,
          taskId: task.taskId,
          model: draft.model,
          quota,
          channelId: channel.id,
          detail: quoteDetail,
        });
      }
      return task;
    });
  }

  private async markSubmitted(
    task: TaskEntity,
    channel: ChannelEntity,
    adapter: UpstreamAdapter,
    upstreamTaskId: string,
    requestPatch?: Record<string, unknown>,
  ): Promise<TaskEntity> {
    const now = this.clock.now();
    const changes: Partial<TaskEntity> = {
      status: 'NOT_START',
      upstreamTaskId,
      submitTime: now,
      nextPollAt: now + pollIntervalFor(channel, adapter),
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
      ...(requestPatch ? { request: { ...task.request, ...requestPatch } } : {}),
    };
    await this.transactions.runStatement((manager) => this.tasks.compareAndSet(manager, task.id, 'SUBMITTING', changes));
    return Object.assign(task, changes);
  }

  private async rejectAfter(task: TaskEntity, error: unknown): Promise<unknown> {
    this.logger.error(`submit of ${task.taskId} crashed: ${(error as Error)?.stack ?? error}`);
    await this.transitions.reject(task, 'internal error during submit');
    return error;
  }

  private async findIdempotent(userId: number, key: string, requestHash: string): Promise<TaskEntity | null> {
    const earlier = await this.tasks.findByIdempotencyKey(userId, key);
    if (!earlier) return null;
    if (earlier.createdAt < this.clock.now() - IDEMPOTENCY_WINDOW_MS || earlier.status === 'REJECTED' || earlier.deletedAt !== null) {
      // Outside the window, after a refused submit, or once the client deleted the task, the key is free again.
      await this.transactions.run((manager) => manager.update(TaskEntity, { id: earlier.id }, { idempotencyKey: null }));
      return null;
    }
    if (earlier.requestHash !== requestHash) {
      throw new AppError(ErrorCode.Conflict, 'Idempotency-Key was already used with a different request body', { param: 'Idempotency-Key' });
    }
    return earlier;
  }
}

/** The channel's `poll_interval_ms` when set, else the family default; never below the family's minimum. */
export function pollIntervalFor(channel: ChannelEntity, adapter: UpstreamAdapter): number {
  const configured = Number(channel.settings?.poll_interval_ms);
  const interval = Number.isFinite(configured) && configured > 0 ? configured : adapter.defaultPollIntervalMs;
  return Math.max(interval, adapter.minPollIntervalMs ?? 0);
}

function hashDraft(draft: TaskDraft): string {
  return createHash('sha256').update(JSON.stringify([draft.model, draft.request, draft.quote])).digest('hex');
}
