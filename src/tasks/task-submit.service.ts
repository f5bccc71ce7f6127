import { Injectable, Logger } from '@nestjs/common';
import { PricingService } from '../billing/pricing.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import { isUniqueViolation } from '../database/transaction-runner';
import { FamilyRegistry } from '../families/family-registry';
import { ChannelRouter } from '../upstream/channel-router.service';
import type { ChannelEntity } from '../upstream/channel.entity';
import { LedgerService } from '../billing/ledger.service';
import { ModelRoutes } from './model-routes';
import { HandToProvider } from './submit/hand-to-provider';
import { HoldRequest, SubmitHold } from './submit/submit-hold';
import { idempotencyKeyInFlight, SubmitIdempotency } from './submit/submit-idempotency';
import { isStarted, SUBMIT_TAKEN_OVER, SubmitInterruptedError } from './submit/submit-outcomes';
import { SendingByRoute } from './submit/sending-by-route';
import { SubmitSettlement } from './submit/submit-settlement';
import type { Caller } from '../auth/caller';
import type { TaskDraft } from './task-draft';
import type { TaskEntity } from './task.entity';

export type { Caller, TaskDraft };

/** A quote: what the submit of `draft` would charge now, and how the figure was reached. */
export interface SubmitQuote {
  draft: TaskDraft;
  quota: number;
  detail: string;
}

/** What a task takes from the draft of the route it is first sent by (the rest, price included, is the validated draft's). */
function routeDraftFields(draft: TaskDraft): Partial<TaskDraft> {
  const { platform, request, action, properties, size, mode, routeModel } = draft;
  return { platform, request, action, properties, size, mode, routeModel };
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
  private readonly logger = new Logger('TaskSubmit');

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

  /**
   * `routes`: the draft on each route of the model (ModelRoutes; the draft's own only, when not
   * given). The candidates are the channels of every route's platform, best first; the task is
   * recorded with the draft of the first one's route, and moves to another route's draft with the
   * hand-over to a channel of that platform. The price is the validated draft's, whichever route runs it.
   */
  async submit(draft: TaskDraft, caller: Caller, routes = ModelRoutes.of(draft)): Promise<TaskEntity> {
    const requestHash = this.idempotency.hash(draft);
    if (draft.idempotencyKey) {
      const earlier = await this.idempotency.earlierTask(caller.user.id, draft.idempotencyKey, requestHash);
      if (earlier) return earlier;
    }
    const candidates = await this.candidates(draft, caller, routes);
    const quote = await this.pricing.quote({ ...draft.quote, group: caller.user.group });
    const sending = new SendingByRoute(routes, this.families, (other) => this.pricedAlike(other, quote.quota, caller));
    const first = await this.firstRouted(candidates, sending, draft, caller);
    const request: HoldRequest = {
      draft: first.draft.platform === draft.platform ? draft : { ...draft, ...routeDraftFields(first.draft) },
      caller,
      channel: first.channel,
      adapter: this.families.adapter(first.draft.platform),
      quota: quote.quota,
      quoteDetail: quote.detail,
      requestHash,
    };
    const recorded = await this.recordOrFindWinner(request);
    if ('winner' in recorded) return recorded.winner;
    const { task } = recorded;
    try {
      return await this.provider.send(task, candidates, sending);
    } catch (error) {
      return this.afterFailedSend(task, draft, error);
    }
  }

  /**
   * What `submit` would charge for `draft` now, from the same channels and price, and the 402 its
   * hold would meet (the key's limits, the balance); nothing is written.
   */
  async quote(draft: TaskDraft, caller: Caller, routes = ModelRoutes.of(draft)): Promise<SubmitQuote> {
    await this.candidates(draft, caller, routes);
    const quote = await this.pricing.quote({ ...draft.quote, group: caller.user.group });
    await this.ledger.assertCouldHold({ userId: caller.user.id, apiKey: caller.apiKey ?? null, quota: quote.quota });
    return { draft, quota: quote.quota, detail: quote.detail };
  }

  /**
   * The channels of every route's platform that may run the draft now, best first (their breakers
   * not open); 503 when none is available, with Retry-After until the first open breaker lets a submit try again.
   */
  private async candidates(draft: TaskDraft, caller: Caller, routes: ModelRoutes): Promise<ChannelEntity[]> {
    // Channels pinned by the draft (the provider account holding its verified assets) are all of its own platform.
    const platforms = draft.channelIds ? draft.platform : routes.platforms();
    const route = await this.router.route(platforms, draft.model, caller.user.group, draft.channelIds);
    if (route.channels.length > 0) return route.channels;
    throw this.noChannel(draft, route.openUntil);
  }

  /** The 503 of no channel to send to; with Retry-After until the first open breaker lets a submit try again, when one will. */
  private noChannel(draft: TaskDraft, openUntil: number | null): AppError {
    if (openUntil === null) return new AppError(ErrorCode.ServiceUnavailable, `no available channel for model ${draft.model}`);
    return new AppError(ErrorCode.ServiceUnavailable, `every channel for model ${draft.model} is failing, retry later`, {
      retryAfterSeconds: Math.max(1, Math.ceil((openUntil - this.clock.now()) / 1000)),
    });
  }

  /** The first candidate whose route takes the request, and that route's draft: what the task is recorded with. */
  private async firstRouted(
    candidates: ChannelEntity[],
    sending: SendingByRoute,
    validated: TaskDraft,
    caller: Caller,
  ): Promise<{ channel: ChannelEntity; draft: TaskDraft }> {
    for (const channel of candidates) {
      const draft = await sending.draftFor(channel);
      if (draft) return { channel, draft };
    }
    // Only routes refusing this body are open: the validated route's channels, if their breakers are open, say when to come back.
    const own = await this.router.route(validated.platform, validated.model, caller.user.group, validated.channelIds);
    throw this.noChannel(validated, own.channels.length === 0 ? own.openUntil : null);
  }

  /** Whether another route's draft costs what the client is held: one price for the model on every platform. */
  private async pricedAlike(other: TaskDraft, quota: number, caller: Caller): Promise<boolean> {
    const { quota: priced } = await this.pricing.quote({ ...other.quote, group: caller.user.group });
    if (priced !== quota)
      this.logger.warn(`route ${other.platform} of ${other.model} prices the request at ${priced}, not ${quota}: passed over`);
    return priced === quota;
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
