import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/** Who a console session speaks for: the admin token's holder, or a user (customer or admin user). */
export type ConsoleSessionKind = 'admin_token' | 'user';

/**
 * A signed-in browser. The cookie carries a random session id; only its SHA-256 is stored,
 * so a leaked table cannot be replayed as cookies.
 */
@Entity('console_sessions')
export class ConsoleSessionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ type: 'varchar', length: 16 })
  kind: ConsoleSessionKind;

  /** The signed-in user; null for an admin-token session. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'expires_at', type: 'bigint', transformer: bigintColumn })
  expiresAt: number;
}
