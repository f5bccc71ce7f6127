import { Injectable } from '@nestjs/common';
import type { CostRow } from '../../billing/provider-cost';
import { routeOn } from '../../catalog/catalog-entry';
import { AppError, ErrorCode } from '../../common/errors/app-error';
import { ModelCatalog } from '../../families/model-catalog.service';
import { ChannelsService } from '../../upstream/channels.service';
import type { TaskEntity } from '../task.entity';

/** What the operator set of a task's provider cost: its channel's price of one provider unit, its route's cost. */
export interface TaskCostInputs {
  /** The channel's `settings.usd_per_unit`; null when unset (or the channel is gone). */
  usdPerUnit: number | null;
  /** The `cost` of the model's route on the task's platform; null when it has none. */
  routeCost: readonly CostRow[] | null;
}

export const NO_COST_INPUTS: TaskCostInputs = { usdPerUnit: null, routeCost: null };

/**
 * Reads, for a task being settled, what the operator said its provider charges: the `usd_per_unit`
 * of the channel that ran it (its `channelId`), and the `cost` of the catalog route on its platform.
 * Both from the shared caches or one channel read; a channel or model deleted since reads as unset.
 */
@Injectable()
export class TaskCostLookup {
  constructor(
    private readonly channels: ChannelsService,
    private readonly catalog: ModelCatalog,
  ) {}

  async of(task: Pick<TaskEntity, 'channelId' | 'model' | 'platform'>): Promise<TaskCostInputs> {
    const [usdPerUnit, routeCost] = await Promise.all([this.usdPerUnitOf(task.channelId), this.routeCostOf(task)]);
    return { usdPerUnit, routeCost };
  }

  private async usdPerUnitOf(channelId: number | null): Promise<number | null> {
    if (channelId === null) return null;
    try {
      const value = (await this.channels.get(channelId)).settings?.usd_per_unit;
      return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.NotFound) return null;
      throw error;
    }
  }

  private async routeCostOf(task: Pick<TaskEntity, 'model' | 'platform'>): Promise<readonly CostRow[] | null> {
    const entry = await this.catalog.find(task.model);
    const cost = entry ? routeOn(entry, task.platform)?.cost : undefined;
    return cost && cost.length > 0 ? cost : null;
  }
}
