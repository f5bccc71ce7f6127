import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../../database/column-transformers';

export type SessionStatus = 'pending' | 'succeeded' | 'failed' | 'expired';

/** One liveness check: created at the provider, reported by the browser callback, confirmed by the provider. */
@Entity('verification_sessions')
export class VerificationSessionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Public id, `vs_` + random characters. */
  @Column({ name: 'session_id', type: 'varchar', length: 64, unique: true })
  sessionId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  /** The family C channel whose control plane holds the session. */
  @Column({ name: 'channel_id', type: 'integer' })
  channelId: number;

  /** The provider's BytedToken (single-use); shown masked everywhere but the create response. */
  @Column({ name: 'provider_token', type: 'varchar', length: 191, unique: true })
  providerToken: string;

  @Column({ name: 'callback_url', type: 'text' })
  callbackUrl: string;

  @Column({ name: 'h5_link', type: 'text' })
  h5Link: string;

  /** Only a provider-confirmed GroupId makes it `succeeded`; the browser's report alone never does. */
  @Column({ type: 'varchar', length: 16 })
  status: SessionStatus;

  @Column({ name: 'group_id', type: 'varchar', length: 128, nullable: true })
  groupId: string | null;

  /** What the browser callback reported (unverified). */
  @Column({ name: 'result_code', type: 'varchar', length: 32, nullable: true })
  resultCode: string | null;

  @Column({ name: 'algorithm_base_resp_code', type: 'varchar', length: 64, nullable: true })
  algorithmBaseRespCode: string | null;

  @Column({ name: 'req_measure_info_value', type: 'varchar', length: 255, nullable: true })
  reqMeasureInfoValue: string | null;

  @Column({ name: 'verify_type', type: 'varchar', length: 32, nullable: true })
  verifyType: string | null;

  /** When the callback was used; a token is accepted once. */
  @Column({ name: 'callback_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  callbackAt: number | null;

  /** When the provider confirmed the check (GroupId returned). */
  @Column({ name: 'confirmed_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  confirmedAt: number | null;

  /** When the provider was last asked for the result. */
  @Column({ name: 'checked_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  checkedAt: number | null;

  /** End of the H5 page's life; the session keeps its result afterwards. */
  @Column({ name: 'expires_at', type: 'bigint', transformer: bigintColumn })
  expiresAt: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
