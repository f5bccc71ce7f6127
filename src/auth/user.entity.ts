import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, booleanColumn } from '../database/column-transformers';

export type UserStatus = 'active' | 'disabled';
export type UserRole = 'user' | 'admin';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 64, unique: true })
  username: string;

  @Column({ name: 'user_group', type: 'varchar', length: 64 })
  group: string;

  @Column({ type: 'varchar', length: 16 })
  status: UserStatus;

  @Column({ type: 'varchar', length: 16 })
  role: UserRole;

  /** Spendable balance, in quota units. */
  @Column({ type: 'bigint', transformer: bigintColumn })
  quota: number;

  @Column({ name: 'used_quota', type: 'bigint', transformer: bigintColumn })
  usedQuota: number;

  @Column({ name: 'verification_enabled', type: 'integer', transformer: booleanColumn })
  verificationEnabled: boolean;

  /** Requests per minute on /v1/* (0 = unlimited). */
  @Column({ type: 'integer', default: 0 })
  rpm: number;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
