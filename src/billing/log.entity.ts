import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/**
 * `hold`: a submit's charge until the provider accepts the task (then it becomes the `consume`);
 * `release`: a hold given back because the provider refused the submit. The customer never got
 * that task, so neither shows in the customer's logs, totals or charts.
 * `refused`: a request an API key's own limits refused (no quota moves; the detail says why).
 */
export type LogType = 'topup' | 'consume' | 'refund' | 'adjust' | 'hold' | 'release' | 'refused';
export const LOG_TYPES: LogType[] = ['topup', 'consume', 'refund', 'adjust', 'hold', 'release', 'refused'];
/** What a customer sees of the ledger. */
export const CUSTOMER_LOG_TYPES = ['topup', 'consume', 'refund', 'adjust', 'refused'] as const satisfies readonly LogType[];
export type CustomerLogType = (typeof CUSTOMER_LOG_TYPES)[number];

/**
 * The ledger: one row per quota movement, written in the transaction that moves the balance.
 * A unique key on (task_id, type) makes a second charge or refund of one task impossible.
 */
@Entity('logs')
export class LogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 16 })
  type: LogType;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'task_id', type: 'varchar', length: 64, nullable: true })
  taskId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  model: string | null;

  /** Signed change of the balance: positive for top-ups and refunds, negative for charges. */
  @Column({ type: 'bigint', transformer: bigintColumn })
  quota: number;

  @Column({ name: 'balance_after', type: 'bigint', transformer: bigintColumn })
  balanceAfter: number;

  @Column({ name: 'channel_id', type: 'integer', nullable: true })
  channelId: number | null;

  @Column({ type: 'text', nullable: true })
  detail: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;
}
