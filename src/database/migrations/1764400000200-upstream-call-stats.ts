import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** Latency histogram columns: calls that took at most N ms, and the slower rest (src/metrics/upstream-latency-buckets.ts). */
const LATENCY_BUCKET_COLUMNS = [
  'lat_le_100',
  'lat_le_250',
  'lat_le_500',
  'lat_le_1000',
  'lat_le_2500',
  'lat_le_5000',
  'lat_le_10000',
  'lat_gt_10000',
];

/**
 * Upstream calls (submits and polls) per minute and channel, shared by every instance: counts, a
 * latency sum and a small latency histogram (for a p95), one row per minute and channel.
 */
export class UpstreamCallStats1764400000200 implements MigrationInterface {
  name = 'UpstreamCallStats1764400000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'upstream_call_stats',
        columns: [
          col.id(),
          col.bigint('minute'),
          col.int('channel_id'),
          col.int('calls', false, 0),
          col.int('errors', false, 0),
          col.bigint('latency_sum_ms', false, 0),
          ...LATENCY_BUCKET_COLUMNS.map((name) => col.int(name, false, 0)),
        ],
        indices: [{ name: 'uq_upstream_call_stats_minute_channel', columnNames: ['minute', 'channel_id'], isUnique: true }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('upstream_call_stats');
  }
}
