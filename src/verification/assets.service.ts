import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UserEntity } from '../auth/user.entity';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { assertPublicHttpUrl } from '../common/urls/url-guard';
import { mediaSourcePolicy } from '../common/urls/media-source-policy';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { GammaControlClient } from '../families/gamma/control-plane/gamma-control.client';
import type { ProviderAsset } from '../families/gamma/control-plane/gamma-control.types';
import { AssetRepository } from './asset.repository';
import { settledStatusOf } from './asset-status';
import { isNotFoundAnswer, toClientError } from './control-errors';
import type { VerificationAssetEntity } from './entities/verification-asset.entity';
import type { VerificationGroupEntity } from './entities/verification-group.entity';
import { VerificationChannels } from './verification-channels.service';

/** First follow-up of a new asset; the provider usually finishes within seconds. */
export const FIRST_CHECK_DELAY_MS = 2_000;
const LIST_PAGE_SIZE = 100;
const MAX_LIST_PAGES = 5;

/** Portrait assets of a verified group: upload by URL, follow to active/failed, list, get, delete. */
@Injectable()
export class AssetsService {
  private readonly logger = new Logger('Verification');

  constructor(
    private readonly repository: AssetRepository,
    private readonly channels: VerificationChannels,
    private readonly control: GammaControlClient,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async groups(user: UserEntity): Promise<VerificationGroupEntity[]> {
    return this.repository.groupsOf(user.id);
  }

  async list(user: UserEntity, groupId: string): Promise<VerificationAssetEntity[]> {
    const group = await this.repository.ownedGroup(user.id, groupId);
    const assets = await this.repository.inGroup(user.id, groupId);
    if (assets.some((asset) => asset.status === 'processing')) await this.refreshGroup(group, assets);
    return assets;
  }

  /** 404 unless the group is the user's (as every use case here answers for another account's group). */
  async assertOwnGroup(user: UserEntity, groupId: string): Promise<void> {
    await this.repository.ownedGroup(user.id, groupId);
  }

  async upload(user: UserEntity, groupId: string, input: { url: string; name?: string }): Promise<VerificationAssetEntity> {
    const group = await this.repository.ownedGroup(user.id, groupId);
    const url = await assertPublicHttpUrl(input.url, 'url', mediaSourcePolicy(this.config));
    const name = input.name?.trim() || defaultName(url);
    const channel = await this.channels.holding(group.channelId);
    const created = await this.control.createAsset(channel, { groupId, url: input.url, name }).catch((error) => {
      throw toClientError(error, 'url');
    });
    if (typeof created.Id !== 'string' || !created.Id)
      throw new AppError(ErrorCode.ServiceUnavailable, 'verification provider answered without an asset id, retry later');
    const now = this.clock.now();
    const asset = await this.repository.insert({
      assetId: created.Id,
      groupId,
      userId: user.id,
      channelId: group.channelId,
      name,
      url: input.url,
      status: 'processing',
      error: null,
      nextCheckAt: now + FIRST_CHECK_DELAY_MS,
      leaseOwner: null,
      checkCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    this.logger.log(`asset ${asset.assetId} created in group ${groupId} for user ${user.id}`);
    return asset;
  }

  async get(user: UserEntity, assetId: string): Promise<VerificationAssetEntity> {
    const asset = await this.repository.owned(user.id, assetId);
    if (asset.status === 'processing') await this.refresh(asset);
    return asset;
  }

  async remove(user: UserEntity, assetId: string): Promise<void> {
    const asset = await this.repository.owned(user.id, assetId);
    const channel = await this.channels.holding(asset.channelId);
    try {
      await this.control.deleteAsset(channel, asset.assetId);
    } catch (error) {
      // Already gone at the provider: forgetting it here is all that is left to do.
      if (!isNotFoundAnswer(error)) throw toClientError(error);
    }
    await this.repository.remove(asset);
    this.logger.log(`asset ${asset.assetId} deleted by user ${user.id}`);
  }

  /**
   * Asks the provider about one processing asset (GetAsset) and records a final state.
   * Returns false when the provider could not be asked; a read never fails because of that.
   */
  async refresh(asset: VerificationAssetEntity): Promise<boolean> {
    try {
      const channel = await this.channels.holding(asset.channelId);
      await this.apply(asset, await this.control.getAsset(channel, asset.assetId));
      return true;
    } catch (error) {
      this.logger.warn(`could not refresh asset ${asset.assetId}: ${(error as Error)?.message ?? error}`);
      return false;
    }
  }

  /** One ListAssets walk for the whole group instead of a GetAsset per processing asset. */
  private async refreshGroup(group: VerificationGroupEntity, assets: VerificationAssetEntity[]): Promise<void> {
    const waiting = new Map(assets.filter((asset) => asset.status === 'processing').map((asset) => [asset.assetId, asset]));
    try {
      const channel = await this.channels.holding(group.channelId);
      for (let page = 1; page <= MAX_LIST_PAGES && waiting.size > 0; page++) {
        const result = await this.control.listAssets(channel, [group.groupId], page, LIST_PAGE_SIZE);
        const items = Array.isArray(result.Items) ? result.Items : [];
        for (const item of items) {
          const asset = waiting.get(item.Id);
          if (!asset) continue;
          waiting.delete(item.Id);
          await this.apply(asset, item);
        }
        if (items.length < LIST_PAGE_SIZE || page * LIST_PAGE_SIZE >= Number(result.TotalCount ?? 0)) break;
      }
    } catch (error) {
      this.logger.warn(`could not refresh the assets of group ${group.groupId}: ${(error as Error)?.message ?? error}`);
    }
  }

  private async apply(asset: VerificationAssetEntity, provider: ProviderAsset): Promise<void> {
    const settled = settledStatusOf(provider);
    if (settled && (await this.repository.settle(asset, settled.status, settled.error))) {
      this.logger.log(`asset ${asset.assetId} is ${settled.status}${settled.error ? ` (${settled.error.code})` : ''}`);
    }
  }
}

/** The image's file name without extension, else `portrait`. */
function defaultName(url: URL): string {
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
  const last = decodeSegment(segment).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return (last || 'portrait').slice(0, 128);
}

/** A name is only a label: a segment that does not decode is kept as it was sent. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
