import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../../database/column-transformers';

/** A code worth quota, redeemed once by one customer; only its hash is stored (`redemption_codes`, BillingModule's). */
@Entity('redemption_codes')
export class RedemptionCodeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** SHA-256 of the code as normalized (upper case, no dashes); the code itself is shown once. */
  @Column({ name: 'code_hash', type: 'varchar', length: 64, unique: true })
  codeHash: string;

  /** The code's last characters, so an operator can tell codes apart. */
  @Column({ name: 'code_hint', type: 'varchar', length: 16 })
  codeHint: string;

  @Column({ type: 'bigint', transformer: bigintColumn })
  quota: number;

  /** Codes made in one request share it (the id of its first code). */
  @Column({ name: 'batch_id', type: 'integer', nullable: true })
  batchId: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'expires_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  expiresAt: number | null;

  @Column({ name: 'redeemed_by', type: 'integer', nullable: true })
  redeemedBy: number | null;

  @Column({ name: 'redeemed_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  redeemedAt: number | null;
}
