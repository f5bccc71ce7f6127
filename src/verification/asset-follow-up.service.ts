import { Injectable } from '@nestjs/common';
import { JobContext } from '../jobs/job-context';
import type { RetryPolicy } from '../jobs/leased-job';
import { RegisteredJob } from '../jobs/registered-job';
import { AssetRepository } from './asset.repository';
import { AssetsService } from './assets.service';
import { VerificationAssetEntity } from './entities/verification-asset.entity';

const BATCH_SIZE = 20;
const MAX_ASSETS_PER_ROUND = 200;
/** Provider calls in flight at once on this instance. */
const CONCURRENCY = 4;
const LEASE_MS = 60_000;
const FIRST_DELAY_MS = 2_000;
const MAX_DELAY_MS = 60_000;
/** An asset the provider has not settled after this long is failed. */
const GIVE_UP_AFTER_MS = 30 * 60_000;

/**
 * Follows uploaded assets to `active` or `failed` in the background, so a client that never
 * reads them still finds them settled. A leased job of the {@link JobRunner} (any number of
 * instances), every `ASSET_FOLLOW_UP_INTERVAL_MS`.
 */
@Injectable()
export class AssetFollowUpService extends RegisteredJob<VerificationAssetEntity> {
  constructor(
    private readonly repository: AssetRepository,
    private readonly assets: AssetsService,
    context: JobContext,
  ) {
    super(context, { name: 'asset-follow-up', batchSize: BATCH_SIZE, maxItemsPerRound: MAX_ASSETS_PER_ROUND, concurrency: CONCURRENCY });
  }

  get intervalMs(): number {
    return this.config.assetFollowUpIntervalMs;
  }

  private get owner(): string {
    return `${this.instanceId}#assets`;
  }

  /** One round: claim due processing assets and ask the provider about each. Returns how many were looked at. */
  followDueAssets(): Promise<number> {
    return this.loop.runRound();
  }

  claim(limit: number): Promise<VerificationAssetEntity[]> {
    return this.repository.claimDue(this.owner, limit, LEASE_MS);
  }

  async handle(asset: VerificationAssetEntity): Promise<string> {
    await this.assets.refresh(asset);
    if (asset.status !== 'processing') return asset.status;
    const now = this.clock.now();
    if (now - asset.createdAt > GIVE_UP_AFTER_MS) {
      await this.repository.settle(asset, 'failed', {
        code: 'ProcessingTimeout',
        message: 'the provider did not finish processing the image in 30 minutes',
      });
      return 'timed_out';
    }
    await this.repository.reschedule(asset, now + Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(asset.checkCount, 5)), this.owner);
    return 'processing';
  }

  /** Shutting down: the asset is due again at once, for another instance. */
  handBack(asset: VerificationAssetEntity): Promise<void> {
    return this.repository.release(asset, this.owner, this.clock.now());
  }

  describe(asset: VerificationAssetEntity): string {
    return `asset ${asset.assetId}`;
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.repository.oldestDueCheckAt(now);
  }

  /** The provider (or the database) failed: look again after a jittered back-off, counted as a check. */
  readonly retry: RetryPolicy<VerificationAssetEntity> = {
    intervalMs: () => FIRST_DELAY_MS,
    failures: (asset) => asset.checkCount,
    later: (asset, _failures, dueAt) => this.repository.reschedule(asset, dueAt, this.owner),
  };
}
