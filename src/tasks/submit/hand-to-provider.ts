import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../../common/errors/app-error';
import { TransactionRunner } from '../../database/transaction-runner';
import { upstreamModelFor } from '../../upstream/channel-router.service';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { BreakerOutcome, breakerOutcomeOf } from '../../upstream/breaker/breaker-outcome';
import { FAILURE } from '../../upstream/failure-reason';
import { SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import { SubmitLease } from '../submit-lease';
import type { TaskEntity } from '../task.entity';
import type { TaskStatus } from '../task-status';
import { TaskStateRepository } from '../repositories/task-state.repository';
import { TaskTransitionsService } from '../task-transitions.service';
import { Admitted, Candidate, onOneRoute, PlannedRoute, storedRoute, walkPlan } from '../dispatch/dispatch-plan';
import type { Admission } from '../../upstream/breaker/channel-breakers.service';
import { SubmitAttempts } from './submit-attempts';
import { SubmitChannelReports } from './submit-channel-reports';
import { SubmitLeases } from './submit-leases';
import type { SubmitEnds } from './submit-ends';
import { SubmitSettlement } from './submit-settlement';
import { ProviderCallbackLinks } from '../push/provider-callback-links';

/** An attempt whose provider may have accepted the task (its answer was lost): the walk ends, the task sent nowhere else. */
const KEPT = 'kept' as const;

/**
 * Step 2 of a submit (and the resubmit of one a crash interrupted): the recorded task goes to the
 * provider, trying the next channel while a provider did not accept it (each channel's breaker told
 * what its answer says, each failed attempt in the task's timeline), within a deadline well under the task's
 * lease, which a heartbeat keeps extending meanwhile. Every end is a compare-and-set that still holds
 * the lease: accepted (SubmitSettlement), failed by moderation (refunded), or refused (hold released).
 */
@Injectable()
export class HandToProvider {
  private readonly logger = new Logger('TaskSubmit');
  /** A first submit: its client waits for the answer, its charge is held until a provider takes it. */
  private readonly firstSubmit: SubmitEnds = {
    status: 'SUBMITTING',
    accepted: (task, channel, adapter, outcome, owner) => this.settlement.accepted(task, channel, adapter, outcome, owner),
    refusedInput: (task, error, owner) => this.refusedInput(task, error, owner),
    noneAccepted: (task, lastError, backpressure, owner) => this.noneAccepted(task, lastError, backpressure, owner),
    crashed: (task, error, owner) => this.rejectAfterCrash(task, error, owner),
    lost: (task, upstreamTaskId) => this.settlement.afterTakeover(task, upstreamTaskId),
  };

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskStateRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly settlement: SubmitSettlement,
    private readonly attempts: SubmitAttempts,
    private readonly leases: SubmitLeases,
    private readonly reports: SubmitChannelReports,
    private readonly callbacks: ProviderCallbackLinks,
  ) {}

  /**
   * Runs under the task's current lease (`task.leaseOwner`), extended by a heartbeat until the task
   * is settled. `candidates`: the dispatch plan's, each sent by its route (that platform's adapter
   * and route model, a candidate's model_mapping overriding the model); a candidate on another
   * platform than the task's is sent the request that route's family built. A candidate whose
   * breaker opened meanwhile, or that another submit is trying half-open, is passed over.
   */
  send(task: TaskEntity, candidates: readonly Candidate[]): Promise<TaskEntity> {
    return this.underLease(task, this.firstSubmit, true, (handOver) => this.walk(task, candidates, handOver));
  }

  /**
   * The resubmit of a task a crash interrupted, to the channel that had it (whose provider
   * de-duplicates it): whatever its breaker says, since that provider may be running it already.
   */
  resend(task: TaskEntity, channel: ChannelEntity, adapter: UpstreamAdapter): Promise<TaskEntity> {
    const candidates = onOneRoute([channel], storedRoute(task, adapter, adapter.defaultUpstreamModel(task.model)));
    return this.underLease(task, this.firstSubmit, false, (handOver) => this.walk(task, candidates, handOver));
  }

  /**
   * A task the provider accepted, then failed for its own reason, handed to the next candidates
   * (ProviderRetry) under the task's current lease, in the status `ends` names; `byBreaker` false for
   * the resubmit, after a crash, to the channel that may have it already (its provider de-duplicates).
   */
  retry(task: TaskEntity, candidates: readonly Candidate[], ends: SubmitEnds, byBreaker = true): Promise<TaskEntity> {
    return this.underLease(task, ends, byBreaker, (handOver) => this.walk(task, candidates, handOver));
  }

  private async underLease(
    task: TaskEntity,
    ends: SubmitEnds,
    byBreaker: boolean,
    run: (handOver: HandOver) => Promise<TaskEntity>,
  ): Promise<TaskEntity> {
    const { owner, lease } = this.leases.start(task, ends.status);
    try {
      return await run({ owner, lease, ends, byBreaker, lastError: null, backpressure: null });
    } finally {
      await lease.stop();
    }
  }

  /**
   * The plan's candidates in turn (walkPlan) until one accepts. A provider that did not accept (no
   * answer, 5xx, 429, auth or balance) passes the task on before the client is answered; one that may
   * have accepted it (the call went out, its answer was lost) keeps it: the task is never sent to a second provider.
   */
  private async walk(task: TaskEntity, candidates: readonly Candidate[], handOver: HandOver): Promise<TaskEntity> {
    const { lease } = handOver;
    const ended = await walkPlan(candidates, {
      // Past the deadline no further channel is tried: the lease must outlast the submit.
      goesOn: () => !lease.lost && lease.remainingMs() > 0,
      // That route's family refuses what the client asked (its own rules): the client is not failed for it, the next route is tried.
      passedOver: ({ channel }) => this.attempts.skipped(task, channel),
      admit: ({ channel }, deferred) => this.admit(channel, deferred, handOver.byBreaker),
      attempt: ({ channel }, route, admission) => this.attempt(task, channel, route, admission, handOver),
    });
    return ended === undefined || ended === KEPT ? this.noneTook(task, handOver) : ended;
  }

  /** What the channel's breaker says to this attempt (nothing asked of it for a resubmit sent whatever it says). */
  private async admit(channel: ChannelEntity, deferred: boolean, byBreaker: boolean): Promise<Admitted<Admission | null>> {
    if (!byBreaker) return { admission: null };
    const admitted = await this.reports.admit(channel.id, deferred);
    if (admitted === 'defer') return 'defer';
    return admitted ? { admission: admitted } : 'not_now';
  }

  /**
   * One candidate's attempt: the task it ended as, KEPT when that provider may have accepted it, or
   * undefined to go on to the next; its breaker told what its answer says.
   */
  private async attempt(
    task: TaskEntity,
    channel: ChannelEntity,
    route: PlannedRoute,
    admitted: Admission | null,
    handOver: HandOver,
  ): Promise<TaskEntity | typeof KEPT | undefined> {
    const { owner, lease, ends } = handOver;
    // What this attempt tells the channel's breaker, recorded however it ends (its admission ends with it).
    let said: BreakerOutcome = 'neutral';
    try {
      if (!(await this.moveTo(task, channel, route, owner, ends.status))) return ends.lost(task);
      let outcome: SubmitOutcome;
      const endCall = this.reports.startCall(channel.id);
      try {
        outcome = await route.adapter.submit(task, channel, lease, this.callbacks.urlFor(task, channel, route.adapter));
        endCall(false);
      } catch (error) {
        // The provider answering "no" to the content is an answer, not channel trouble.
        endCall(!(error instanceof UpstreamError && (error.kind === 'moderation' || error.kind === 'invalid_input')));
        // Aborted by a takeover: not the provider's doing.
        if (lease.lost) return ends.lost(task);
        said = breakerOutcomeOf(error);
        if (!(error instanceof UpstreamError)) throw await ends.crashed(task, error, owner);
        handOver.lastError = error;
        this.logger.warn(`submit of ${task.taskId} on channel ${channel.id} failed (${error.kind}): ${error.message}`);
        if (error.kind === 'moderation' || error.kind === 'invalid_input') return this.refusedContent(task, channel, error, owner, ends);
        await this.reports.recordChannelOutcome(channel.id, `${error.kind}: ${error.message}`);
        await this.attempts.failed(task, channel, error);
        if (error.details.mayHaveBeenAccepted) {
          this.logger.warn(`submit of ${task.taskId} may have been accepted by channel ${channel.id}: not sent to another channel`);
          return KEPT;
        }
        if (error.kind === 'backpressure') handOver.backpressure = error;
        return undefined;
      }
      // The provider has the job now: record that first, then the channel's statistics and breaker.
      said = 'accepted';
      const submitted = await ends.accepted(task, channel, route.adapter, outcome, owner);
      await this.reports.recordChannelOutcome(channel.id, null);
      return submitted;
    } finally {
      await this.reports.recordBreaker(channel.id, said, admitted);
    }
  }

  /** No candidate took the task (or the one that may have did not say): whoever has the lease decides, or the ends' refusal. */
  private noneTook(task: TaskEntity, { lease, ends, lastError, backpressure, owner }: HandOver): Promise<TaskEntity> {
    if (lease.lost) return ends.lost(task);
    return ends.noneAccepted(task, lastError, backpressure, owner);
  }

  /** No channel took a first submit: the task is refused (its hold released) and the client told to retry. */
  private async noneAccepted(
    task: TaskEntity,
    lastError: UpstreamError | null,
    backpressure: UpstreamError | null,
    owner: string,
  ): Promise<TaskEntity> {
    if (!(await this.transitions.reject(task, lastError?.message ?? 'no channel accepted the task', owner)))
      return this.settlement.afterTakeover(task);
    if (backpressure) {
      throw new AppError(ErrorCode.RateLimited, 'upstream concurrency limit reached, retry later', {
        retryAfterSeconds: backpressure.details.retryAfterSeconds ?? 10,
      });
    }
    throw new AppError(ErrorCode.ServiceUnavailable, 'upstream channel unavailable, retry later', { retryAfterSeconds: 30 });
  }

  /**
   * The task now goes to `channel` (with the model's name there, and, on another platform than the
   * task's now, that route's request and family fields), in one compare-and-set; false when the task
   * was taken over meanwhile.
   */
  private async moveTo(task: TaskEntity, channel: ChannelEntity, route: PlannedRoute, owner: string, status: TaskStatus): Promise<boolean> {
    const fields = route.fields.platform !== task.platform ? route.fields : null;
    if (task.channelId === channel.id && fields === null) return true;
    const changes: Partial<TaskEntity> = {
      ...fields,
      channelId: channel.id,
      upstreamModel: upstreamModelFor(channel, task.model, route.routeModel),
    };
    const kept = await this.transactions.runStatement((manager) => this.tasks.compareAndSet(manager, task.id, status, changes, owner));
    if (kept) Object.assign(task, changes);
    return kept;
  }

  /**
   * The provider said no to the content: moderation after accepting it fails the task (the client
   * gets it, refunded); invalid input refuses it (a 400, the hold released). Neither is channel trouble.
   */
  private async refusedContent(
    task: TaskEntity,
    channel: ChannelEntity,
    error: UpstreamError,
    owner: string,
    ends: SubmitEnds,
  ): Promise<TaskEntity> {
    await this.reports.recordChannelOutcome(channel.id, null);
    if (error.kind === 'moderation') {
      if (!(await this.transitions.fail(task, FAILURE.moderation, {}, owner))) return ends.lost(task);
      return task;
    }
    return ends.refusedInput(task, error, owner);
  }

  /** A first submit's input refused upstream: a 400, its hold released. */
  private async refusedInput(task: TaskEntity, error: UpstreamError, owner: string): Promise<TaskEntity> {
    if (!(await this.transitions.reject(task, error.message, owner))) return this.settlement.afterTakeover(task);
    // A gateway further down the chain counted too many hops: say so, so that every gateway of a loop passes the code back.
    const code = error.details.upstreamCode === ErrorCode.TooManyGatewayHops ? ErrorCode.TooManyGatewayHops : ErrorCode.InvalidRequest;
    throw new AppError(code, `upstream rejected the request: ${error.message}`);
  }

  private async rejectAfterCrash(task: TaskEntity, error: unknown, owner: string): Promise<unknown> {
    this.logger.error(`submit of ${task.taskId} crashed: ${(error as Error)?.stack ?? error}`);
    await this.transitions.reject(task, 'internal error during submit', owner);
    return error;
  }
}

/** One hand-over under a lease: who holds it, how it ends, whether breakers are asked, and what the providers said so far. */
interface HandOver {
  owner: string;
  lease: SubmitLease;
  ends: SubmitEnds;
  byBreaker: boolean;
  lastError: UpstreamError | null;
  /** The last limit a provider answered with. */
  backpressure: UpstreamError | null;
}
