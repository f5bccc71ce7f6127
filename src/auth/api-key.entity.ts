import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, jsonColumn } from '../database/column-transformers';

export type ApiKeyStatus = 'active' | 'revoked';

/** A key budget's period; its length is BUDGET_PERIOD_MS. */
export type BudgetPeriod = '1d' | '7d' | '30d';
export const BUDGET_PERIODS: BudgetPeriod[] = ['1d', '7d', '30d'];
const DAY_MS = 86_400_000;
export const BUDGET_PERIOD_MS: Record<BudgetPeriod, number> = { '1d': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

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

  /** Quota units this key may spend in all; null: only the balance limits it. */
  @Column({ name: 'quota_limit', type: 'bigint', nullable: true, transformer: bigintColumn })
  quotaLimit: number | null;

  /** What the key has spent, net of refunds. */
  @Column({ name: 'used_quota', type: 'bigint', default: 0, transformer: bigintColumn })
  usedQuota: number;

  /** Quota units per budget period; null: no budget. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintColumn })
  budget: number | null;

  @Column({ name: 'budget_period', type: 'varchar', length: 8, nullable: true })
  budgetPeriod: BudgetPeriod | null;

  /** Spent in the period starting at budgetPeriodStart (stale once that period is over: read through keyBudgetState). */
  @Column({ name: 'budget_used', type: 'bigint', default: 0, transformer: bigintColumn })
  budgetUsed: number;

  @Column({ name: 'budget_period_start', type: 'bigint', nullable: true, transformer: bigintColumn })
  budgetPeriodStart: number | null;

  /** Ms; the key is refused from then on. */
  @Column({ name: 'expires_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  expiresAt: number | null;

  /** IPs and CIDRs (v4, v6) the key may be used from; null: anywhere. */
  @Column({ name: 'allowed_ips', type: 'text', nullable: true, transformer: jsonColumn })
  allowedIps: string[] | null;

  /** Requests per minute for this key (0 = only the account's limit). */
  @Column({ type: 'integer', default: 0 })
  rpm: number;

  /** Written at most once a minute per key per instance. */
  @Column({ name: 'last_used_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  lastUsedAt: number | null;
}
