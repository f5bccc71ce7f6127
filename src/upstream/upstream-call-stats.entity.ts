import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/** Upstream calls (submits and polls) of one channel in one minute, summed over every instance. */
@Entity('upstream_call_stats')
export class UpstreamCallStatsEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Start of the minute, ms epoch. */
  @Column({ type: 'bigint', transformer: bigintColumn })
  minute: number;

  @Column({ name: 'channel_id', type: 'integer' })
  channelId: number;

  @Column({ type: 'integer' })
  calls: number;

  /** Calls that failed for transport or provider trouble (not a generation that failed). */
  @Column({ type: 'integer' })
  errors: number;

  @Column({ name: 'latency_sum_ms', type: 'bigint', transformer: bigintColumn })
  latencySumMs: number;
}
