import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, jsonColumn } from '../../database/column-transformers';

export type AssetStatus = 'processing' | 'active' | 'failed';

export interface AssetError {
  code: string;
  message: string;
}

/** A portrait image uploaded into a verified group; usable in family C generation once `active`. */
@Entity('verification_assets')
export class VerificationAssetEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The provider's asset Id: clients reference it as `asset://<asset_id>`, and it is forwarded as is. */
  @Column({ name: 'asset_id', type: 'varchar', length: 128, unique: true })
  assetId: string;

  @Column({ name: 'group_id', type: 'varchar', length: 128 })
  groupId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'channel_id', type: 'integer' })
  channelId: number;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'varchar', length: 16 })
  status: AssetStatus;

  /** The provider's error when the asset failed (e.g. FaceMismatch). */
  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  error: AssetError | null;

  /** When the follow-up job should next ask the provider (processing assets only). */
  @Column({ name: 'next_check_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  nextCheckAt: number | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'check_count', type: 'integer' })
  checkCount: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
