import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../../database/column-transformers';

/** A real-person portrait asset group the provider created for a verified account. */
@Entity('verification_groups')
export class VerificationGroupEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The provider's GroupId. */
  @Column({ name: 'group_id', type: 'varchar', length: 128, unique: true })
  groupId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  /** The channel (provider account) that holds the group and its assets. */
  @Column({ name: 'channel_id', type: 'integer' })
  channelId: number;

  /** The session that proved it. */
  @Column({ name: 'session_id', type: 'varchar', length: 64 })
  sessionId: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;
}
