import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { INSTANCE_ID } from '../config/instance-id';
import { AssetRepository } from './asset-repository';
import { AssetsService } from './assets.service';

const INTERVAL_MS = 3_000;
const BATCH_SIZE = 20;
const LEASE_MS = 60_000;
const MAX_DELAY_MS = 60_000;
/** An asset the provider has not settled after this long is failed. */
const GIVE_UP_AFTER_MS = 30 * 60_000;

/**
 * Follows uploaded assets to `active` or `failed` in the background, so a client that never
 * reads them still finds them settled. Claims due assets with a lease (any number of instances).
 */
@Injectable()
export class AssetFollowUpService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AssetFollowUp');
  private running: Promise<number> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    private readonly repository: AssetRepository,
    private readonly assets: AssetsService,
    private readonly scheduler: SchedulerRegistry,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    // Background jobs follow TASK_SYNC_INTERVAL_MS: 0 (tests) turns them off.
    if (this.config.taskSyncIntervalMs <= 0) return;
    const timer = setInterval(() => {
      this.followDueAssets().catch((error) => this.logger.error(`asset follow-up failed: ${(error as Error)?.stack ?? error}`));
    }, INTERVAL_MS);
    this.scheduler.addInterval('asset-follow-up', timer);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.scheduler.doesExist('interval', 'asset-follow-up')) this.scheduler.deleteInterval('asset-follow-up');
    await this.running;
  }

  /** One round: claim due processing assets and ask the provider about each. Returns how many were looked at. */
  followDueAssets(): Promise<number> {
    if (!this.running) this.running = this.round().finally(() => (this.running = null));
    return this.running;
  }

  private async round(): Promise<number> {
    const owner = `${this.instanceId}#assets`;
    const due = await this.repository.claimDue(owner, BATCH_SIZE, LEASE_MS);
    for (const asset of due) {
      try {
        await this.assets.refresh(asset);
        if (asset.status !== 'processing') continue;
        const now = this.clock.now();
        if (now - asset.createdAt > GIVE_UP_AFTER_MS) {
          await this.repository.settle(asset, 'failed', { code: 'ProcessingTimeout', message: 'the provider did not finish processing the image in 30 minutes' });
          continue;
        }
        await this.repository.reschedule(asset, now + Math.min(MAX_DELAY_MS, 2_000 * 2 ** Math.min(asset.checkCount, 5)), owner);
      } catch (error) {
        this.logger.error(`follow-up of asset ${asset.assetId} failed: ${(error as Error)?.stack ?? error}`);
      }
    }
    return due.length;
  }
}
