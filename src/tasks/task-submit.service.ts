import { Injectable } from '@nestjs/common';
import { PricingService } from '../billing/pricing.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { isDatabaseUnavailable } from '../database/database-errors';
import { isUniqueViolation } from '../database/transaction-runner';
import { FamilyRegistry } from '../families/family-registry';
import { ChannelRouter } from '../upstream/channel-router.service';
import type { ChannelEntity } from '../upstream/channel.entity';
import { LedgerService } from '../billing/ledger.service';
import { HandToProvider } from './submit/hand-to-provider';
import { HoldRequest, SubmitHold } from './submit/submit-hold';
import { idempotencyKeyInFlight, SubmitIdempotency } from './submit/submit-idempotency';
import { isStarted, SUBMIT_TAKEN_OVER, SubmitInterruptedError } from './submit/submit-outcomes';
import { SubmitSettlement } from './submit/submit-settlement';
import type { Caller, TaskDraft } from './task-draft';
import type { TaskEntity } from './task.entity';

export type { Caller, TaskDraft };

/** A quote: what the submit of `draft` would charge now, and how the figure was reached. */
export interface SubmitQuote {
  draft: TaskDraft;
  quota: number;
  detail: string;
}

/** Attempts to record a task when a concurrent request with the same key keeps being refused. */
const IDEMPOTENT_RECORD_ATTEMPTS = 3;

/**
 * Submits a task crash-safely, in the steps of submit/: the earlier task of its Idempotency-Key, if
 * any; the channels and the price; (1) the task recorded with its charge held (SubmitHold); (2) handed
 * to the provider (HandToProvider); (3) settled (SubmitSettlement). A crash between (1) and (3) leaves
 * a SUBMITTING task whose lease runs out; the sync settles it. A client answered 503 never has its
 * task run nor charged: a task whose writes the database did not confirm is refused once it answers again.
 */
@Injectable()
export class TaskSubmitService {
  constructor(
    private readonly idempotency: SubmitIdempotency,
    private readonly router: ChannelRouter,
    private readonly pricing: PricingService,
    private readonly families: FamilyRegistry,
    private readonly hold: SubmitHold,
    private readonly provider: HandToProvider,
    private readonly settlement: SubmitSettlement,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
  ) {}

  async submit(draft: TaskDraft, caller: Caller): Promise<TaskEntity> {
    const requestHash = this.idempotency.hash(draft);
    if (draft.idempotencyKey) {
      const earlier = await this.idempotency.earlierTask(caller.user.id, draft.idempotencyKey, requestHash);
      if (earlier) return earlier;
    }
    const adapter = this.families.adapter(draft.platform);
    const candidates = await this.candidates(draft, caller);
    const quote = await this.pricing.quote({ ...draft.quote, group: caller.user.group });
    const request: HoldRequest = {
      draft,
      caller,
      channel: candidates[0],
      adapter,
      quota: quote.quota,
      quoteDetail: quote.detail,
      requestHash,
    };
    const recorded = await this.recordOrFindWinner(request);
    if ('winner' in recorded) return recorded.winner;
    const { task } = recorded;
    try {
      return await this.provider.send(task, candidates, adapter, draft.routeModel);
    } catch (error) {
      return this.afterFailedSend(task, draft, error);
    }
  }

  /**
   * What `submit` would charge for `draft` now, from the same channels and price, and the 402 its
   * hold would meet (the key's limits, the balance); nothing is written.
   */
  async quote(draft: TaskDraft, caller: Caller): Promise<SubmitQuote> {
    await this.candidates(draft, caller);
    const quote = await this.pricing.quote({ ...draft.quote, group: caller.user.group });
    await this.ledger.assertCouldHold({ userId: caller.user.id, apiKey: caller.apiKey ?? null, quota: quote.quota });
    return { draft, quota: quote.quota, detail: quote.detail };
  }

  /**
   * The channels that may run the draft now, best first (their breakers not open); 503 when none is
   * available, with Retry-After until the first open breaker lets a submit try again.
   */
  private async candidates(draft: TaskDraft, caller: Caller): Promise<ChannelEntity[]> {
    const route = await this.router.route(draft.platform, draft.model, caller.user.group, draft.channelIds);
    if (route.channels.length > 0) return route.channels;
    if (route.openUntil === null) throw new AppError(ErrorCode.ServiceUnavailable, `no available channel for model ${draft.model}`);
    throw new AppError(ErrorCode.ServiceUnavailable, `every channel for model ${draft.model} is failing, retry later`, {
      retryAfterSeconds: Math.max(1, Math.ceil((route.openUntil - this.clock.now()) / 1000)),
    });
  }

  /** Step (1), again when a concurrent request with the same key won and was refused meanwhile; or that winner's task. */
  private async recordOrFindWinner(request: HoldRequest): Promise<{ task: TaskEntity } | { winner: TaskEntity }> {
    const { draft, caller } = request;
    for (let attempt = 1; ; attempt++) {
      const recording = this.hold.newTask(request);
      try {
        return { task: await this.hold.record(recording, request) };
      } catch (error) {
        // Inserted, then the COMMIT failed or went unanswered: it may have committed all the same, and the client gets a 503.
        if (recording.id !== undefined && isDatabaseUnavailable(error)) this.settlement.oweRefusal(recording);
        if (!draft.idempotencyKey || !isUniqueViolation(error)) throw error;
        // A concurrent request with the same key got there first: its task is the answer (409 while
        // it is in flight); if it was refused meanwhile, the key is free again and this one tries anew.
        const winner = await this.idempotency.earlierTask(caller.user.id, draft.idempotencyKey, request.requestHash);
        if (winner) return { winner };
        if (attempt >= IDEMPOTENT_RECORD_ATTEMPTS) throw idempotencyKeyInFlight();
      }
    }
  }

  /** Throws what the client gets after step (2) failed; returns the live task instead when a takeover's resubmit got it to the provider. */
  private async afterFailedSend(task: TaskEntity, draft: TaskDraft, error: unknown): Promise<TaskEntity> {
    // A write before the answer failed: the client gets a 503, so the task must not run later (a takeover resubmitting it).
    if (isDatabaseUnavailable(error)) this.settlement.oweRefusal(task);
    else if (error instanceof SubmitInterruptedError && !draft.idempotencyKey) {
      // Taken over and still being resubmitted: without an Idempotency-Key the client could never find it again.
      // Refused before the 503, unless the resubmit got there first: then the client gets the live task.
      const now = await this.settlement.refuseIfSubmitting(task.taskId, SUBMIT_TAKEN_OVER).catch((failure: unknown) => {
        if (!isDatabaseUnavailable(failure)) throw failure;
        this.settlement.oweRefusal(task);
        return null;
      });
      if (now && isStarted(now)) return now;
    }
    throw error;
  }
}
