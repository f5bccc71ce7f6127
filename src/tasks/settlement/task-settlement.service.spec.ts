import type { CatalogEntry } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { AppConfig } from '../../config/app-config';
import type { TransactionRunner } from '../../database/transaction-runner';
import type { LedgerService } from '../../billing/ledger.service';
import type { ModelCatalog } from '../../families/model-catalog.service';
import type { ChannelsService } from '../../upstream/channels.service';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { TaskStateRepository } from '../repositories/task-state.repository';
import type { TaskEndHooks } from '../task-end-hooks';
import type { TaskMetrics } from '../task-metrics.service';
import type { TaskEntity } from '../task.entity';
import { TaskCostLookup } from './task-cost-inputs';
import { TaskSettlementService } from './task-settlement.service';

/** A model routed on two platforms, each route with its own cost to the operator. */
const ENTRY = {
  id: 'clip-1',
  routes: [
    {
      platform: 'kling',
      upstreamModel: 'kling-v3',
      cost: [
        { resolution: '720p', unit: 'second', usd: 0.05, audio_usd: 0.08 },
        { resolution: '1080p', unit: 'second', usd: 0.1 },
      ],
    },
    { platform: 'fal', upstreamModel: 'fal-ai/clip', cost: [{ resolution: '*', unit: 'clip', duration: 10, usd: 1.25 }] },
    { platform: 'vidu', upstreamModel: 'viduq1' },
  ],
} as unknown as CatalogEntry;

const CHANNELS: Record<number, Partial<ChannelEntity>> = {
  1: { id: 1, settings: null },
  2: { id: 2, settings: { usd_per_unit: 0.07 } },
  3: { id: 3, settings: { usd_per_unit: 0.003125 } },
};

function settlementService() {
  const written: Array<Partial<TaskEntity>> = [];
  const channels = {
    get: async (id: number) => {
      if (!CHANNELS[id]) throw AppError.notFound(`channel ${id} not found`);
      return CHANNELS[id] as ChannelEntity;
    },
  } as unknown as ChannelsService;
  const catalog = { find: async (name: string) => (name === ENTRY.id ? ENTRY : null) } as unknown as ModelCatalog;
  const service = new TaskSettlementService(
    { run: (work: (manager: unknown) => Promise<unknown>) => work({}) } as unknown as TransactionRunner,
    {
      markSettled: async (_manager: unknown, _id: number, columns: Partial<TaskEntity>) => {
        written.push(columns);
        return true;
      },
    } as unknown as TaskStateRepository,
    { refundInTransaction: async () => undefined } as unknown as LedgerService,
    { now: () => 1_700_000_000_000 },
    { quotaPerUnit: 10_000 } as AppConfig,
    { record: async () => undefined, ended: () => undefined } as unknown as TaskEndHooks,
    new TaskCostLookup(channels, catalog),
    { settlements: { inc: () => undefined } } as unknown as TaskMetrics,
  );
  return { service, written };
}

/** A task that asked for 10 s at 1080p, charged 10,000 quota at 1,000 per second. */
function task(over: Partial<TaskEntity>): TaskEntity {
  return {
    id: 7,
    taskId: 'task_1',
    userId: 1,
    apiKeyId: 1,
    model: ENTRY.id,
    platform: 'kling',
    channelId: 1,
    quota: 10_000,
    providerUsage: null,
    priceBasis: {
      rules: [
        { resolution: '720p', unit: 'second', duration: 0, price: 500, audioPrice: null },
        { resolution: '1080p', unit: 'second', duration: 0, price: 1_000, audioPrice: null },
      ],
      ratio: 1,
      asked: { seconds: 10, resolution: '1080p', audio: false, fastMotion: false },
    },
    createdAt: 1_699_999_000_000,
    ...over,
  } as TaskEntity;
}

const video = (seconds: number, width: number, height: number, hasAudio = false) => ({ durationSeconds: seconds, width, height, hasAudio });

describe('TaskSettlementService: what a task cost the operator', () => {
  it("prices what was delivered at the route's cost on the task's platform", async () => {
    const { service, written } = settlementService();
    // Asked 10 s at 1080p, delivered 6 s at 720p: 6 x $0.05, not 10 x $0.10.
    expect(await service.settle(task({}), video(6, 1280, 720))).toBe(true);
    expect(written[0]).toMatchObject({ finalQuota: 3_000, providerCostMicroUsd: 300_000 });
    // With audio: the route's audio tier.
    await service.settle(task({ id: 8 }), video(4, 1280, 720, true));
    expect(written[1]).toMatchObject({ providerCostMicroUsd: 320_000 });
    // A per-clip cost on fal's route: the asked clip, whatever its delivered length.
    await service.settle(task({ id: 9, platform: 'fal' }), video(9, 1920, 1080));
    expect(written[2]).toMatchObject({ providerCostMicroUsd: 1_250_000 });
  });

  it("prices the provider's own units at the channel's usd_per_unit, before the route's cost", async () => {
    const { service, written } = settlementService();
    await service.settle(task({ channelId: 2, providerUsage: { unit: 'fal_billable_units', amount: 5 } }), video(6, 1280, 720));
    expect(written[0]).toMatchObject({ providerCostMicroUsd: 350_000 });
    await service.settle(task({ channelId: 3, platform: 'vidu', providerUsage: { unit: 'credits', amount: 40 } }), video(6, 1280, 720));
    expect(written[1]).toMatchObject({ providerCostMicroUsd: 125_000 });
    // xAI's ticks are money already: the channel's price of a unit does not apply.
    await service.settle(task({ channelId: 2, providerUsage: { unit: 'usd_ticks', amount: 2_000_000_000 } }), video(6, 1280, 720));
    expect(written[2]).toMatchObject({ providerCostMicroUsd: 200_000 });
  });

  it('falls back to the route when the channel has no usd_per_unit or is gone; unknown without either', async () => {
    const { service, written } = settlementService();
    await service.settle(task({ channelId: 1, providerUsage: { unit: 'fal_billable_units', amount: 5 } }), video(6, 1280, 720));
    expect(written[0]).toMatchObject({ providerCostMicroUsd: 300_000 });
    await service.settle(task({ channelId: 99 }), video(6, 1280, 720));
    expect(written[1]).toMatchObject({ providerCostMicroUsd: 300_000 });
    await service.settle(task({ platform: 'vidu', providerUsage: { unit: 'credits', amount: 40 } }), video(6, 1280, 720));
    expect(written[2]).toMatchObject({ providerCostMicroUsd: null });
    await service.settle(task({ model: 'not-in-the-catalog' }), video(6, 1280, 720));
    expect(written[3]).toMatchObject({ providerCostMicroUsd: null });
  });

  it('settled as asked at the end (no video store): the route cost at what was asked, the units at the channel price', async () => {
    const { service } = settlementService();
    expect(await service.asAskedAtEnd(task({}), 1_700_000_000_000)).toMatchObject({ finalQuota: 10_000, providerCostMicroUsd: 1_000_000 });
    expect(
      await service.asAskedAtEnd(
        task({ channelId: 3, platform: 'vidu', providerUsage: { unit: 'credits', amount: 8 } }),
        1_700_000_000_000,
      ),
    ).toMatchObject({ providerCostMicroUsd: 25_000 });
  });
});
