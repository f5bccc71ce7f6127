import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { assertPublicHttpUrl } from '../common/urls/url-guard';
import { mediaSourcePolicy } from '../common/urls/media-source-policy';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { AssetReferenceInput, GammaAssetCheck } from '../families/gamma/gamma-asset-check';
import { AssetRepository } from './asset.repository';
import { AssetsService } from './assets.service';
import { VerificationChannels } from './verification-channels.service';

/**
 * Checks the reference images of a family C request before anything is charged: every
 * `asset://` must be the caller's own and `active`; plain URLs must be public http(s).
 * Returns the channels that may run the task (the provider account holding the assets), or
 * undefined when any channel may.
 */
@Injectable()
export class AssetReferencesService implements GammaAssetCheck {
  constructor(
    private readonly repository: AssetRepository,
    private readonly assets: AssetsService,
    private readonly channels: VerificationChannels,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(userId: number, references: AssetReferenceInput[]): Promise<number[] | undefined> {
    for (const reference of references) {
      if (!reference.assetId) await assertPublicHttpUrl(reference.url, reference.field, mediaSourcePolicy(this.config));
    }
    const wanted = references.filter((reference) => reference.assetId);
    if (wanted.length === 0) return undefined;
    const owned = new Map(
      (
        await this.repository.ownedAmong(
          userId,
          wanted.map((r) => r.assetId!),
        )
      ).map((asset) => [asset.assetId, asset]),
    );
    const homes = new Set<number>();
    for (const reference of wanted) {
      const asset = owned.get(reference.assetId!);
      // Another account's asset is reported exactly like an unknown one.
      if (!asset) throw AppError.invalid(`${reference.field}: asset ${reference.assetId} not found`, reference.field);
      // The follow-up may not have seen it finish yet: ask the provider before refusing.
      if (asset.status === 'processing') await this.assets.refresh(asset);
      if (asset.status !== 'active') {
        throw AppError.invalid(`${reference.field}: asset ${reference.assetId} is not active (status ${asset.status})`, reference.field);
      }
      homes.add(asset.channelId);
    }
    if (homes.size > 1)
      throw AppError.invalid(
        'metadata.content: all assets of one request must come from the same verification provider account',
        'metadata.content',
      );
    return this.channels.sameAccount([...homes][0]);
  }
}
