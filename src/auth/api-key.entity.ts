import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, jsonColumn } from '../database/column-transformers';

export type ApiKeyStatus = 'active' | 'revoked';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  /** SHA-256 of the key; the key itself is shown once and never stored. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, unique: true })
  keyHash: string;

  /** `sk-` plus a few characters, so people can tell their keys apart. */
  @Column({ name: 'key_hint', type: 'varchar', length: 16 })
  keyHint: string;

  /** Allowlist of public model ids; null means every model. */
  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  models: string[] | null;

  @Column({ type: 'varchar', length: 16 })
  status: ApiKeyStatus;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  revokedAt: number | null;
}
