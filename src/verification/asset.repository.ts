import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { claimLease } from '../jobs/lease-claim';
import { AssetError, AssetStatus, VerificationAssetEntity } from './entities/verification-asset.entity';
import { VerificationGroupEntity } from './entities/verification-group.entity';

/** Groups and assets, always scoped to their owner: another account's are simply not found. */
@Injectable()
export class AssetRepository {
  constructor(
    @InjectRepository(VerificationAssetEntity) private readonly assets: Repository<VerificationAssetEntity>,
    @InjectRepository(VerificationGroupEntity) private readonly groups: Repository<VerificationGroupEntity>,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async ownedGroup(userId: number, groupId: string): Promise<VerificationGroupEntity> {
    const group = await this.groups.findOne({ where: { groupId, userId } });
    if (!group) throw AppError.notFound(`group ${groupId} not found`);
    return group;
  }

  groupsOf(userId: number): Promise<VerificationGroupEntity[]> {
    return this.groups.find({ where: { userId }, order: { id: 'DESC' } });
  }

  async owned(userId: number, assetId: string): Promise<VerificationAssetEntity> {
    const asset = await this.assets.findOne({ where: { assetId, userId } });
    if (!asset) throw AppError.notFound(`asset ${assetId} not found`);
    return asset;
  }

  /** The caller's assets among `assetIds` (others' and unknown ones are simply absent). */
  ownedAmong(userId: number, assetIds: string[]): Promise<VerificationAssetEntity[]> {
    return assetIds.length ? this.assets.find({ where: { userId, assetId: In(assetIds) } }) : Promise.resolve([]);
  }

  inGroup(userId: number, groupId: string): Promise<VerificationAssetEntity[]> {
    return this.assets.find({ where: { userId, groupId }, order: { id: 'DESC' } });
  }

  async insert(asset: Omit<VerificationAssetEntity, 'id'>): Promise<VerificationAssetEntity> {
    return this.transactions.run((manager) => manager.save(manager.create(VerificationAssetEntity, asset)));
  }

  /** Moves a processing asset to its final state; false when something else settled it first. */
  async settle(asset: VerificationAssetEntity, status: AssetStatus, error: AssetError | null): Promise<boolean> {
    const now = this.clock.now();
    const changes = { status, error, nextCheckAt: null, leaseOwner: null, updatedAt: now };
    const won = await this.transactions.run(async (manager) => {
      const result = await manager.update(VerificationAssetEntity, { id: asset.id, status: 'processing' }, changes);
      return (result.affected ?? 0) > 0;
    });
    if (won) Object.assign(asset, changes);
    return won;
  }

  /** Schedules the next follow-up look at a still processing asset and frees its claim. */
  async reschedule(asset: VerificationAssetEntity, nextCheckAt: number, owner: string): Promise<void> {
    await this.transactions.run((manager) =>
      manager.update(
        VerificationAssetEntity,
        { id: asset.id, status: 'processing', leaseOwner: owner },
        { nextCheckAt, leaseOwner: null, checkCount: asset.checkCount + 1, updatedAt: this.clock.now() },
      ),
    );
  }

  /** Gives a claimed, not yet checked asset back, due at `dueAt` (shutdown: another instance takes it). */
  async release(asset: VerificationAssetEntity, owner: string, dueAt: number): Promise<void> {
    await this.transactions.run((manager) =>
      manager.update(
        VerificationAssetEntity,
        { id: asset.id, status: 'processing', leaseOwner: owner },
        { nextCheckAt: dueAt, leaseOwner: null },
      ),
    );
  }

  /** The oldest follow-up due at `now` and not claimed (a claimed asset's next check is its lease's end), or null. */
  async oldestDueCheckAt(now: number): Promise<number | null> {
    const row = await this.assets
      .createQueryBuilder('a')
      .select('MIN(a.next_check_at)', 'oldest')
      .where('a.status = :status AND a.next_check_at <= :now', { status: 'processing', now })
      .getRawOne<{ oldest: number | string | null }>();
    return row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  }

  async remove(asset: VerificationAssetEntity): Promise<void> {
    await this.transactions.run((manager) => manager.delete(VerificationAssetEntity, { id: asset.id }));
  }

  /**
   * Claims up to `limit` processing assets due for a follow-up (jobs/lease-claim.ts): their next
   * check moves to the end of a lease under `owner`, so another instance does not take them too.
   * A claimed asset's next check is its lease's end, so a dead owner's claim simply runs out.
   */
  async claimDue(owner: string, limit: number, leaseMs: number): Promise<VerificationAssetEntity[]> {
    const now = this.clock.now();
    const leaseUntil = now + leaseMs;
    const claimed = await claimLease(this.transactions, {
      table: 'verification_assets',
      claimable: { sql: "status = 'processing' AND next_check_at <= ?", params: [now] },
      order: 'next_check_at',
      limit,
      lease: { sql: 'lease_owner = ?, next_check_at = ?', params: [owner, leaseUntil] },
    });
    if (claimed.length === 0) return [];
    return this.assets.find({ where: { id: In(claimed), leaseOwner: owner, nextCheckAt: leaseUntil } });
  }
}
