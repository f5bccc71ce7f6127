import { Inject, Injectable } from '@nestjs/common';
import { LedgerService } from '../../billing/ledger.service';
import { Clock } from '../../common/runtime/clock';
import { newTaskId } from '../../common/runtime/random-id';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { INSTANCE_ID } from '../../config/instance-id';
import { TransactionRunner } from '../../database/transaction-runner';
import { upstreamModelFor } from '../../upstream/channel-router.service';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamAdapter } from '../../upstream/upstream-adapter';
import type { Caller } from '../../auth/caller';
import type { PriceBasis } from '../../billing/settlement';
import type { TaskDraft } from '../task-draft';
import { TaskEntity } from '../task.entity';
import { TaskStateRepository } from '../repositories/task-state.repository';
import { TaskSubmitRepository } from '../repositories/task-submit.repository';

/** A priced draft about to be recorded: who asks, on which first channel, for how much. */
export interface HoldRequest {
  draft: TaskDraft;
  caller: Caller;
  channel: ChannelEntity;
  adapter: UpstreamAdapter;
  quota: number;
  quoteDetail: string;
  /** What the task keeps to settle on what was delivered (billing/settlement.ts). */
  priceBasis: PriceBasis | null;
  requestHash: string;
}

/**
 * Step 1 of a submit: the task recorded as SUBMITTING (leased to this instance until the provider
 * answers) with its charge held, in one transaction. A refused submit releases the hold, so it
 * leaves nothing in the customer's ledger; an accepted one turns it into the charge.
 */
@Injectable()
export class SubmitHold {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly tasks: TaskStateRepository,
    private readonly submits: TaskSubmitRepository,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The task as it will be recorded (its `id` is set once inserted, even if the transaction then fails). */
  newTask({ draft, caller, channel, adapter, quota, priceBasis, requestHash }: HoldRequest): TaskEntity {
    const now = this.clock.now();
    return Object.assign(new TaskEntity(), {
      taskId: newTaskId(),
      userId: caller.user.id,
      apiKeyId: caller.apiKey?.id ?? null,
      group: caller.user.group,
      platform: draft.platform,
      model: draft.askedModel ?? draft.model,
      upstreamModel: upstreamModelFor(
        channel,
        draft.askedModel ?? draft.model,
        draft.routeModel ?? adapter.defaultUpstreamModel(draft.model),
      ),
      action: draft.action,
      channelId: channel.id,
      upstreamTaskId: null,
      status: 'SUBMITTING',
      progress: 0,
      quota,
      priceBasis,
      request: draft.request,
      properties: draft.properties ?? null,
      prompt: promptOf(draft),
      pollCount: 0,
      firstPollAt: null,
      lastPollAt: null,
      upstreamResponse: null,
      resultUrl: null,
      outputSize: draft.size ?? null,
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
      cancelSentAt: null,
      providerRetries: 0,
      routeRequest: draft.routeRequest ?? null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Records `task` with the other modules' rows of the draft, its timeline's first event and its hold, in one transaction. */
  async record(task: TaskEntity, { draft, caller, quoteDetail }: HoldRequest): Promise<TaskEntity> {
    const { quota } = task;
    return this.transactions.run(async (manager) => {
      await this.submits.insertNew(manager, task);
      for (const write of draft.recordWithTask ?? []) await write(manager, task);
      await this.tasks.recordEvent(manager, { taskRowId: task.id, kind: 'created', status: 'SUBMITTING', progress: 0, at: task.createdAt });
      if (quota > 0) {
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
}

/** The client's prompt, for the console's search: the input echo, else the request's own prompt. */
function promptOf(draft: TaskDraft): string | null {
  const candidates = [draft.properties?.input, draft.request.prompt];
  const prompt = candidates.find((value): value is string => typeof value === 'string' && value !== '');
  return prompt ?? null;
}
