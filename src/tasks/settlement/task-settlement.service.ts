import { Inject, Injectable, Logger } from '@nestjs/common';
import { LedgerService } from '../../billing/ledger.service';
import { providerCostUsd } from '../../billing/provider-cost';
import { settle, type Settlement } from '../../billing/settlement';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { TransactionRunner } from '../../database/transaction-runner';
import type { VideoFacts } from '../../media/video-facts';
import { TaskStateRepository } from '../repositories/task-state.repository';
import { inTaskSpan } from '../../telemetry/tracing';
import { TaskEndHooks } from '../task-end-hooks';
import { TaskMetrics } from '../task-metrics.service';
import type { TaskEntity } from '../task.entity';
import { settlementOutcome, type NoVideo } from './settlement-outcome';
import { TaskCostInputs, TaskCostLookup } from './task-cost-inputs';
import { taskUsageOf } from './task-usage-view';

/**
 * Settles a finished task on the video it delivered (billing/settlement.ts): the final charge, the
 * refund of the difference in one ledger row naming what was asked and what was delivered, the task's
 * `usage` and what it cost the operator (its provider's own figure, in money or in units at its channel's
 * `usd_per_unit`, else its route's `cost` at what was delivered: TaskCostLookup), all in one transaction, with the task's end as its customer
 * sees it (its `video.completed`). Exactly once: only a SUCCESS task not settled yet takes it, and the
 * ledger refuses a task's second refund.
 */
@Injectable()
export class TaskSettlementService {
  private readonly logger = new Logger('Settlement');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly state: TaskStateRepository,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ends: TaskEndHooks,
    private readonly costs: TaskCostLookup,
    private readonly metrics: TaskMetrics,
  ) {}

  /**
   * `video`: the stored video's facts; null when there is none to read (charged as asked), `noVideo`
   * saying why. False when it was settled already.
   */
  settle(task: TaskEntity, video: VideoFacts | null, noVideo: NoVideo = 'not_stored'): Promise<boolean> {
    return inTaskSpan('task.settle', task.taskId, () => this.settleOnce(task, video, noVideo));
  }

  private async settleOnce(task: TaskEntity, video: VideoFacts | null, noVideo: NoVideo): Promise<boolean> {
    const settlement = settle(task.quota, task.priceBasis, video);
    const inputs = await this.costs.of(task);
    const now = this.clock.now();
    const columns = this.columnsOf(task, settlement, now, inputs);
    const won = await this.transactions.run(async (manager) => {
      if (!(await this.state.markSettled(manager, task.id, columns))) return false;
      if (settlement.refund > 0) {
        await this.ledger.refundInTransaction(manager, {
          userId: task.userId,
          taskId: task.taskId,
          model: task.model,
          quota: settlement.refund,
          channelId: task.channelId,
          detail: `refund: task ${task.taskId} settled on delivery: ${settlement.detail}`,
          apiKeyId: task.apiKeyId,
          chargedAt: task.createdAt,
        });
      }
      await this.ends.record(manager, { task: { ...task, ...columns }, status: 'SUCCESS', at: now, step: 'settled' });
      return true;
    });
    if (won) {
      Object.assign(task, columns);
      this.metrics.settlements.inc({ outcome: settlementOutcome(settlement, noVideo) });
      if (settlement.settled === 'as_asked') this.logger.log(`task ${task.taskId}: ${settlement.detail}`);
      this.ends.ended(task);
    }
    return won;
  }

  /**
   * The columns of a task settled as asked the moment its provider is done (no video store to read it
   * from): written with that move, whose writer counts it (`not_stored`) once the move is won.
   */
  async asAskedAtEnd(task: TaskEntity, now: number): Promise<Partial<TaskEntity> & { settledAt: number }> {
    return this.columnsOf(task, settle(task.quota, task.priceBasis, null), now, await this.costs.of(task));
  }

  private columnsOf(
    task: TaskEntity,
    settlement: Settlement,
    now: number,
    inputs: TaskCostInputs,
  ): Partial<TaskEntity> & { settledAt: number } {
    const asked = task.priceBasis?.asked;
    const shape = settlement.delivered ?? (asked ? { seconds: asked.seconds, resolution: asked.resolution, audio: asked.audio } : null);
    const cost = providerCostUsd({
      usage: task.providerUsage,
      usdPerUnit: inputs.usdPerUnit,
      routeCost: inputs.routeCost,
      shape,
      askedSeconds: asked?.seconds ?? shape?.seconds ?? 0,
    });
    const usage = taskUsageOf({ ...task, finalQuota: settlement.quota }, shape, settlement.settled, this.config.quotaPerUnit);
    return {
      usage,
      finalQuota: settlement.quota,
      usageSeconds: usage.seconds,
      providerCostMicroUsd: cost === null ? null : Math.round(cost * 1e6),
      settledAt: now,
    };
  }
}
