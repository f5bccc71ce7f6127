import { Injectable } from '@nestjs/common';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import { isUniqueViolation } from '../database/transaction-runner';
import { LedgerService } from '../billing/ledger.service';
import type { LaterDraft } from './dispatch/dispatch-plan';
import { DispatchPlanner } from './dispatch/dispatch-planner.service';
import { HandToProvider } from './submit/hand-to-provider';
import { HoldRequest, SubmitHold } from './submit/submit-hold';
import { idempotencyKeyInFlight, SubmitIdempotency } from './submit/submit-idempotency';
import { isStarted, SUBMIT_TAKEN_OVER, SubmitInterruptedError } from './submit/submit-outcomes';
import { SubmitSettlement } from './submit/submit-settlement';
import type { Caller } from '../auth/caller';
import type { TaskDraft } from './task-draft';
import type { TaskEntity } from './task.entity';
import { inTaskSpan, tagTask } from '../telemetry/tracing';

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
 * any; the dispatch plan (DispatchPlanner: the candidates, the price); (1) the task recorded with its charge held (SubmitHold); (2) handed
 * to the provider (HandToProvider); (3) settled (SubmitSettlement). A crash between (1) and (3) leaves
 * a SUBMITTING task whose lease runs out; the sync settles it. A client answered 503 never has its
 * task run nor charged: a task whose writes the database did not confirm is refused once it answers again.
 */
@Injectable()
export class TaskSubmitService {
  constructor(
    private readonly idempotency: SubmitIdempotency,
    private readonly planner: DispatchPlanner,
    private readonly hold: SubmitHold,
    private readonly provider: HandToProvider,
    private readonly settlement: SubmitSettlement,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * `others`: the model's other routes taking the request (none: the draft's own only). The dispatch
   * plan ranks the channels of every route's platform together; the task is recorded with the first
   * candidate's route's draft, and moves to another route's draft with the hand-over to a channel of
   * that platform. The price is the validated draft's, whichever route runs it.
   */
  async submit(draft: TaskDraft, caller: Caller, others: readonly LaterDraft[] = []): Promise<TaskEntity> {
    const requestHash = this.idempotency.hash(draft);
    if (draft.idempotencyKey) {
      const earlier = await this.idempotency.earlierTask(caller.user.id, draft.idempotencyKey, requestHash);
      if (earlier) return earlier;
    }
    const plan = await this.planner.forSubmit(draft, caller, others);
    try {
      const quote = await plan.price();
      const { candidate, route } = await this.planner.first(plan, draft.model);
      const request: HoldRequest = {
        draft: route.draft && route.platform !== draft.platform ? { ...draft, ...routeDraftFields(route.draft) } : draft,
        caller,
        channel: candidate.channel,
        adapter: route.adapter,
        quota: quote.quota,
        quoteDetail: quote.detail,
        priceBasis: quote.basis,
        requestHash,
      };
      const recorded = await this.recordOrFindWinner(request);
      if ('winner' in recorded) return recorded.winner;
      const { task } = recorded;
      tagTask(task.taskId);
      try {
        return await inTaskSpan('task.submit', task.taskId, () => this.provider.send(task, plan.candidates));
      } catch (error) {
        return await this.afterFailedSend(task, draft, error);
      }
    } finally {
      plan.release();
    }
  }

  /**
   * What `submit` would charge for `draft` now, from the same plan and price, and the 402 its hold
   * would meet (the key's limits, the balance); nothing is written.
   */
  async quote(draft: TaskDraft, caller: Caller, others: readonly LaterDraft[] = []): Promise<SubmitQuote> {
    const plan = await this.planner.forSubmit(draft, caller, others);
    try {
      const quote = await plan.price();
      await this.ledger.assertCouldHold({ userId: caller.user.id, apiKey: caller.apiKey ?? null, quota: quote.quota });
      return { draft, quota: quote.quota, detail: quote.detail };
    } finally {
      plan.release();
    }
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
