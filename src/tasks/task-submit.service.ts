import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { LedgerService } from '../billing/ledger.service';
import { PricingService } from '../billing/pricing.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { newTaskId } from '../common/runtime/random-id';
import { isDatabaseUnavailable } from '../database/database-errors';
import { isUniqueViolation, TransactionRunner } from '../database/transaction-runner';
import { ChannelRouter, upstreamModelFor } from '../upstream/channel-router.service';
import { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { FAILURE } from '../upstream/failure-reason';
import { SubmitOutcome, UpstreamAdapter, UpstreamError } from '../upstream/upstream-adapter';
import { UpstreamCallRecorder } from '../upstream/upstream-call-recorder.service';
import { FamilyRegistry } from '../families/family-registry';
import { INSTANCE_ID } from '../config/instance-id';
import { PendingSubmitWrites } from './pending-submit-writes';
import { ProviderCancel } from './provider-cancel';
import { SubmitLease } from './submit-lease';
import { TaskEntity } from './task.entity';
import { TaskRepository } from './task.repository';
import { TaskTransitionsService } from './task-transitions.service';
import { recordTaskEvent } from './task-events';
import type { SubmitFieldRecorder } from './task-submit-fields';

import type { Caller, TaskDraft } from './task-draft';

export type { Caller, TaskDraft };

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
const MODERATION_FAILURE = 'content moderation failed';
/** Why the sync fails a task whose submit was cut off before the provider confirmed it. */
export const SUBMIT_INTERRUPTED = 'generation failed: submit was interrupted';
/** Why a task is refused whose client was answered 503 because the database did not confirm its writes. */
export const SUBMIT_UNCONFIRMED = 'the database did not confirm the submit in time; the client was answered 503';
/** Why a task is refused that a takeover was resubmitting when its client, who sent no Idempotency-Key, was answered 503. */
const SUBMIT_TAKEN_OVER = 'taken over before the provider confirmed the submit; the client was answered 503';
/** Attempts to record a task when a concurrent request with the same key keeps being refused. */
const IDEMPOTENT_RECORD_ATTEMPTS = 3;

/**
 * Submits a task crash-safely: (1) price it, hold its charge and record it as SUBMITTING in one
 * transaction; (2) call the upstream, trying the next channel on channel trouble, all within a
 * deadline well under the task's lease, which a heartbeat keeps extending meanwhile; (3) mark it
 * submitted (the hold becomes the charge), or reject it and release the hold, each a compare-and-set
 * that still holds the lease.
 * A crash between (1) and (3) leaves a SUBMITTING task whose lease runs out; the sync job settles
 * it. A submit that finds its task taken over writes nothing and tells the client what became of it.
 * A client answered 503 never has its task run nor charged: when the database failed a write (whose
 * COMMIT may have landed all the same) the task is refused once it answers again (PendingSubmitWrites);
 * when the provider already took the task, the client gets it and the acceptance is written later.
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
    private readonly families: FamilyRegistry,
    private readonly clock: Clock,
    private readonly calls: UpstreamCallRecorder,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pending: PendingSubmitWrites,
    private readonly providerCancel: ProviderCancel,
  ) {}

  async submit(draft: TaskDraft, caller: Caller): Promise<TaskEntity> {
    const requestHash = hashDraft(draft);
    if (draft.idempotencyKey) {
      const earlier = await this.findIdempotent(caller.user.id, draft.idempotencyKey, requestHash);
      if (earlier) return earlier;
    }
    const adapter = this.families.adapter(draft.platform);
    const routed = await this.router.candidates(draft.platform, draft.model, caller.user.group);
    const candidates = draft.channelIds ? routed.filter((channel) => draft.channelIds!.includes(channel.id)) : routed;
    if (candidates.length === 0) throw new AppError(ErrorCode.ServiceUnavailable, `no available channel for model ${draft.model}`);
    const quote = await this.pricing.quote({ ...draft.quote, group: caller.user.group });

    let task: TaskEntity | null = null;
    for (let attempt = 1; !task; attempt++) {
      const recording = this.newTask(draft, caller, candidates[0], adapter, quote.quota, requestHash);
      try {
        task = await this.record(recording, caller, quote.detail, draft.recordWithTask ?? []);
      } catch (error) {
        // Inserted, then the COMMIT failed or went unanswered: it may have committed all the same, and the client gets a 503.
        if (recording.id !== undefined && isDatabaseUnavailable(error)) this.oweRefusal(recording);
        if (!draft.idempotencyKey || !isUniqueViolation(error)) throw error;
        // A concurrent request with the same key got there first: its task is the answer (409 while
        // it is in flight); if it was refused meanwhile, the key is free again and this one tries anew.
        const winner = await this.findIdempotent(caller.user.id, draft.idempotencyKey, requestHash);
        if (winner) return winner;
        if (attempt >= IDEMPOTENT_RECORD_ATTEMPTS) throw idempotencyKeyInFlight();
      }
    }
    try {
      return await this.sendUpstream(task, candidates, adapter);
    } catch (error) {
      // A write before the answer failed: the client gets a 503, so the task must not run later (a takeover resubmitting it).
      if (isDatabaseUnavailable(error)) this.oweRefusal(task);
      else if (error instanceof SubmitInterruptedError && !draft.idempotencyKey) {
        // Taken over and still being resubmitted: without an Idempotency-Key the client could never find it again.
        // Refused before the 503, unless the resubmit got there first: then the client gets the live task.
        const now = await this.refuseIfSubmitting(task.taskId, SUBMIT_TAKEN_OVER).catch((failure: unknown) => {
          if (!isDatabaseUnavailable(failure)) throw failure;
          this.oweRefusal(task);
          return null;
        });
        if (now && isStarted(now)) return now;
      }
      throw error;
    }
  }

  /**
   * The client of this task was answered 503 for want of a usable database: once it answers again,
   * refuse the task (REJECTED, its hold released) whoever leases it, unless it was settled already.
   * A COMMIT cut off may still land a moment after the database answers again, so a task not (yet)
   * there is looked for again until its record's lease would have run out.
   */
  private oweRefusal(task: TaskEntity): void {
    const lookUntil = this.clock.now() + this.config.taskLeaseMs;
    this.pending.owe(
      `refusal of task ${task.taskId}`,
      async () => (await this.refuseIfSubmitting(task.taskId, SUBMIT_UNCONFIRMED)) !== null || this.clock.now() > lookUntil,
    );
  }

  /**
   * Refuses a task still SUBMITTING, whoever leases it (REJECTED, its hold released, exactly once by
   * the compare-and-set). Returns the task as it is afterwards; null when there is no such task.
   */
  private async refuseIfSubmitting(taskId: string, reason: string): Promise<TaskEntity | null> {
    // Found by its task id: a row id given out to a rolled-back insert may belong to another task now.
    const current = await this.tasks.findByTaskId(taskId);
    if (current?.status !== 'SUBMITTING' || (await this.transitions.reject(current, reason))) return current;
    return this.tasks.findByTaskId(taskId);
  }

  /**
   * Step (2) and (3); also used to resubmit a task whose first attempt was interrupted. Runs under
   * the task's current lease (`task.leaseOwner`), extended by a heartbeat until the task is settled.
   */
  async sendUpstream(task: TaskEntity, candidates: ChannelEntity[], adapter: UpstreamAdapter): Promise<TaskEntity> {
    const owner = task.leaseOwner ?? this.instanceId;
    const lease = new SubmitLease(
      this.config.taskLeaseMs,
      () => this.tasks.extendSubmitLease(task.id, owner, this.clock.now() + this.config.taskLeaseMs),
      (error) => this.logger.warn(`lease heartbeat of ${task.taskId} failed: ${(error as Error)?.message ?? error}`),
    );
    try {
      return await this.tryChannels(task, candidates, adapter, owner, lease);
    } finally {
      await lease.stop();
    }
  }

  private async tryChannels(
    task: TaskEntity,
    candidates: ChannelEntity[],
    adapter: UpstreamAdapter,
    owner: string,
    lease: SubmitLease,
  ): Promise<TaskEntity> {
    let lastError: UpstreamError | null = null;
    let backpressure: UpstreamError | null = null;
    for (const channel of candidates) {
      if (lease.lost) return this.afterTakeover(task);
      // Past the deadline no further channel is tried: the lease must outlast the submit.
      if (lease.remainingMs() <= 0) break;
      if (task.channelId !== channel.id) {
        const upstreamModel = upstreamModelFor(channel, task.model, adapter.defaultUpstreamModel(task.model));
        const kept = await this.transactions.runStatement((manager) =>
          this.tasks.compareAndSet(manager, task.id, 'SUBMITTING', { channelId: channel.id, upstreamModel }, owner),
        );
        if (!kept) return this.afterTakeover(task);
        Object.assign(task, { channelId: channel.id, upstreamModel });
      }
      let outcome: SubmitOutcome;
      const endCall = this.calls.start(channel.id);
      try {
        outcome = await adapter.submit(task, channel, lease);
        endCall(false);
      } catch (error) {
        // The provider answering "no" to the content is an answer, not channel trouble.
        endCall(!(error instanceof UpstreamError && (error.kind === 'moderation' || error.kind === 'invalid_input')));
        if (lease.lost) return this.afterTakeover(task);
        if (!(error instanceof UpstreamError)) throw await this.rejectAfter(task, error, owner);
        lastError = error;
        this.logger.warn(`submit of ${task.taskId} on channel ${channel.id} failed (${error.kind}): ${error.message}`);
        if (error.kind === 'moderation') {
          // Accepted, then failed by the provider's moderation: the client gets the task, failed and refunded.
          await this.recordChannelOutcome(channel.id, null);
          if (!(await this.transitions.fail(task, MODERATION_FAILURE, {}, owner))) return this.afterTakeover(task);
          return task;
        }
        if (error.kind === 'invalid_input') {
          await this.recordChannelOutcome(channel.id, null);
          if (!(await this.transitions.reject(task, error.message, owner))) return this.afterTakeover(task);
          // A gateway further down the chain counted too many hops: say so, so that every gateway of a loop passes the code back.
          const code =
            error.details.upstreamCode === ErrorCode.TooManyGatewayHops ? ErrorCode.TooManyGatewayHops : ErrorCode.InvalidRequest;
          throw new AppError(code, `upstream rejected the request: ${error.message}`);
        }
        await this.recordChannelOutcome(channel.id, `${error.kind}: ${error.message}`);
        if (error.kind === 'backpressure') backpressure = error;
        continue;
      }
      // The provider has the job now: record that first, then the channel's statistics.
      const submitted = await this.markSubmitted(task, channel, adapter, outcome, owner);
      await this.recordChannelOutcome(channel.id, null);
      return submitted;
    }
    if (lease.lost) return this.afterTakeover(task);
    if (!(await this.transitions.reject(task, lastError?.message ?? 'no channel accepted the task', owner)))
      return this.afterTakeover(task);
    if (backpressure) {
      throw new AppError(ErrorCode.RateLimited, 'upstream concurrency limit reached, retry later', {
        retryAfterSeconds: backpressure.details.retryAfterSeconds ?? 10,
      });
    }
    throw new AppError(ErrorCode.ServiceUnavailable, 'upstream channel unavailable, retry later', { retryAfterSeconds: 30 });
  }

  /** The task as recorded: SUBMITTING, leased to this instance until the submit finishes. */
  private newTask(
    draft: TaskDraft,
    caller: Caller,
    channel: ChannelEntity,
    adapter: UpstreamAdapter,
    quota: number,
    requestHash: string,
  ): TaskEntity {
    const now = this.clock.now();
    return Object.assign(new TaskEntity(), {
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
      prompt: promptOf(draft),
      pollCount: 0,
      firstPollAt: null,
      lastPollAt: null,
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
      gatewayHops: draft.gatewayHops ?? 0,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Step (1): records the task and holds its charge, in one transaction; sets `task.id` once inserted. */
  private async record(task: TaskEntity, caller: Caller, quoteDetail: string, withTask: SubmitFieldRecorder[]): Promise<TaskEntity> {
    const { quota } = task;
    return this.transactions.run(async (manager) => {
      await this.tasks.insertNew(manager, task);
      for (const write of withTask) await write(manager, task);
      await recordTaskEvent(manager, { taskRowId: task.id, kind: 'created', status: 'SUBMITTING', progress: 0, at: task.createdAt });
      if (quota > 0) {
        // A hold until the provider accepts the task: a refused submit leaves nothing in the customer's ledger.
        await this.ledger.holdIfEnough(manager, {
          userId: caller.user.id,
          taskId: task.taskId,
          model: task.model,
          quota,
          channelId: task.channelId,
          detail: quoteDetail,
          apiKey: caller.apiKey ?? null,
        });
      }
      return task;
    });
  }

  private async markSubmitted(
    task: TaskEntity,
    channel: ChannelEntity,
    adapter: UpstreamAdapter,
    outcome: SubmitOutcome,
    owner: string,
  ): Promise<TaskEntity> {
    const now = this.clock.now();
    const changes: Partial<TaskEntity> = {
      status: 'NOT_START',
      upstreamTaskId: outcome.upstreamTaskId,
      submitTime: now,
      nextPollAt: now + pollIntervalFor(channel, adapter),
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
      ...(outcome.requestPatch ? { request: { ...task.request, ...outcome.requestPatch } } : {}),
    };
    // Accepted: the task becomes visible and its hold becomes its charge, in one transaction.
    const accepted = { upstreamTaskId: outcome.upstreamTaskId, submitTime: now, nextPollAt: changes.nextPollAt!, request: changes.request };
    const accept = () =>
      this.transactions.run(async (manager) => {
        if (!(await this.tasks.markSubmitted(manager, task.id, owner, accepted))) return false;
        await this.ledger.confirmHold(manager, task.taskId);
        await recordTaskEvent(manager, { taskRowId: task.id, kind: 'submitted', status: 'NOT_START', progress: task.progress, at: now });
        return true;
      });
    let kept: boolean;
    try {
      kept = await accept();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // The provider has the job and the task's record committed: the client gets its task (a 503 would
      // have it retry and pay twice), and the acceptance is written once the database answers (if the
      // lease runs out first, the sync settles the task as any interrupted submit).
      this.pending.owe(`acceptance of task ${task.taskId}`, async () => (await accept(), true));
      return Object.assign(task, changes);
    }
    if (!kept) {
      await this.dropIfCancelled(task, channel, adapter, outcome.upstreamTaskId);
      return this.afterTakeover(task, outcome.upstreamTaskId);
    }
    return Object.assign(task, changes);
  }

  /** The client cancelled the task while the provider was accepting it: the provider is asked to drop its job too, where it can (best effort). */
  private async dropIfCancelled(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter, upstreamTaskId: string): Promise<void> {
    if (!adapter.cancel) return;
    const current = await this.tasks.findByTaskId(task.taskId);
    if (current?.status !== 'FAILURE' || current.failReason !== FAILURE.cancelled) return;
    const accepted = Object.assign(new TaskEntity(), current, { status: 'NOT_START', upstreamTaskId });
    const answer = await this.providerCancel
      .stopIfRunning(accepted, channel, adapter)
      .catch((error: unknown) => `not read: ${(error as Error)?.message ?? error}`);
    if (answer !== 'accepted')
      this.logger.warn(`provider job ${upstreamTaskId} of cancelled task ${task.taskId} not cancelled (${answer})`);
  }

  private async rejectAfter(task: TaskEntity, error: unknown, owner: string): Promise<unknown> {
    this.logger.error(`submit of ${task.taskId} crashed: ${(error as Error)?.stack ?? error}`);
    await this.transitions.reject(task, 'internal error during submit', owner);
    return error;
  }

  /** Channel statistics are bookkeeping: failing to write them never changes the submit's answer. */
  private async recordChannelOutcome(channelId: number, error: string | null): Promise<void> {
    await this.channels
      .recordOutcome(channelId, error)
      .catch((failure) => this.logger.warn(`channel ${channelId} outcome not recorded: ${failure}`));
  }

  /**
   * The task was taken over while this submit ran (its lease ran out: the instance stalled, or the
   * database was unreachable), so whoever took it decides. The client gets the task as it now is
   * once the provider had it (family A's resubmit with the same trace id finds the same job); else
   * (failed as interrupted, refused, still being resubmitted) a 503 to retry: never `queued` for a
   * task that failed.
   */
  private async afterTakeover(task: TaskEntity, upstreamTaskId?: string): Promise<TaskEntity> {
    const current = await this.tasks.findByTaskId(task.taskId);
    if (upstreamTaskId && current?.upstreamTaskId !== upstreamTaskId) {
      // The protocols give no way to cancel it; operators can match it by these ids.
      this.logger.error(
        `submit of ${task.taskId} lost its task after channel ${task.channelId} accepted it as ${upstreamTaskId}; that provider job is not followed`,
      );
    }
    if (current && isStarted(current)) return current;
    this.logger.warn(`submit of ${task.taskId} lost its task (now ${current?.status ?? 'gone'})`);
    const resubmitting = current?.status === 'SUBMITTING' && current.leaseUntil !== null;
    const retryAfterSeconds = resubmitting ? Math.min(60, Math.max(1, Math.ceil((current.leaseUntil! - this.clock.now()) / 1000))) : 1;
    throw new SubmitInterruptedError(retryAfterSeconds);
  }

  private async findIdempotent(userId: number, key: string, requestHash: string): Promise<TaskEntity | null> {
    const earlier = await this.tasks.findByIdempotencyKey(userId, key);
    if (!earlier) return null;
    const interrupted = earlier.status === 'FAILURE' && earlier.failReason === SUBMIT_INTERRUPTED;
    if (
      earlier.createdAt < this.clock.now() - IDEMPOTENCY_WINDOW_MS ||
      earlier.status === 'REJECTED' ||
      interrupted ||
      earlier.deletedAt !== null
    ) {
      // Outside the window, after a refused or interrupted submit (never confirmed upstream), or once the client deleted the task, the key is free again.
      await this.transactions.run((manager) => manager.update(TaskEntity, { id: earlier.id }, { idempotencyKey: null }));
      return null;
    }
    if (earlier.requestHash !== requestHash) {
      throw new AppError(ErrorCode.Conflict, 'Idempotency-Key was already used with a different request body', {
        param: 'Idempotency-Key',
      });
    }
    // Its id would not be visible yet, and the submit may still be refused: the client asks again.
    if (earlier.status === 'SUBMITTING') throw idempotencyKeyInFlight();
    return earlier;
  }
}

/** The channel's `poll_interval_ms` when set, else the family default; never below the family's minimum. */
export function pollIntervalFor(channel: ChannelEntity, adapter: UpstreamAdapter): number {
  const configured = Number(channel.settings?.poll_interval_ms);
  const interval = Number.isFinite(configured) && configured > 0 ? configured : adapter.defaultPollIntervalMs;
  return Math.max(interval, adapter.minPollIntervalMs ?? 0);
}

/** The task runs (the provider has it) and its client may see it: not being submitted, refused, interrupted or deleted. */
function isStarted(task: TaskEntity): boolean {
  return task.deletedAt === null && !['SUBMITTING', 'REJECTED'].includes(task.status) && task.failReason !== SUBMIT_INTERRUPTED;
}

/** The 503 of a submit whose task was taken over before the provider confirmed it. */
class SubmitInterruptedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      ErrorCode.ServiceUnavailable,
      'the submit was interrupted before the provider confirmed it; retry (with the same Idempotency-Key, if one was sent)',
      {
        retryAfterSeconds,
      },
    );
  }
}

/** 409 while the first request with the key is in flight (as the IETF Idempotency-Key draft says). */
function idempotencyKeyInFlight(): AppError {
  return new AppError(ErrorCode.Conflict, 'a request with this Idempotency-Key is still in progress; retry after Retry-After seconds', {
    param: 'Idempotency-Key',
    retryAfterSeconds: 1,
  });
}

/** The client's prompt, for the console's search: the input echo, else the request's own prompt. */
function promptOf(draft: TaskDraft): string | null {
  const candidates = [draft.properties?.input, draft.request.prompt];
  const prompt = candidates.find((value): value is string => typeof value === 'string' && value !== '');
  return prompt ?? null;
}

function hashDraft(draft: TaskDraft): string {
  return createHash('sha256')
    .update(JSON.stringify([draft.model, draft.request, draft.quote]))
    .digest('hex');
}
