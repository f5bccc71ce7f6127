import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { UpstreamCallCounts } from '../../upstream/upstream-call-recorder.service';
import { LATENCY_BUCKET_COLUMNS } from '../../upstream/upstream-latency-buckets';

type Raw = Record<string, string | number | null>;
const num = (value: string | number | null | undefined): number => Number(value ?? 0);

/**
 * The dashboard's aggregate reads, each one GROUP BY in the database over an indexed time column
 * (tasks.created_at, logs (type, created_at), upstream_call_stats (minute, channel_id)).
 * `x - x % size` floors to a bucket on MySQL and SQLite alike (times are positive).
 */
@Injectable()
export class DashboardQueries {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Tasks created since `from`, per bucket and current status. */
  async tasksByBucketAndStatus(fromMs: number, bucketMs: number): Promise<Array<{ bucket: number; status: string; count: number }>> {
    const rows: Raw[] = await this.dataSource.query(
      'SELECT (created_at - (created_at % ?)) AS bucket, status, COUNT(*) AS n FROM tasks WHERE created_at >= ? GROUP BY bucket, status',
      [bucketMs, fromMs],
    );
    return rows.map((row) => ({ bucket: num(row.bucket), status: String(row.status), count: num(row.n) }));
  }

  /** Tasks created since `from`, per channel (or model) and current status. */
  async tasksByStatusPer(column: 'channel_id' | 'model', fromMs: number): Promise<Array<{ key: string | number | null; status: string; count: number }>> {
    const rows: Raw[] = await this.dataSource.query(`SELECT ${column} AS k, status, COUNT(*) AS n FROM tasks WHERE created_at >= ? GROUP BY ${column}, status`, [fromMs]);
    return rows.map((row) => ({ key: row.k, status: String(row.status), count: num(row.n) }));
  }

  /** Signed quota of charges and refunds since `from`, per bucket and type. */
  async ledgerByBucket(fromMs: number, bucketMs: number): Promise<Array<{ bucket: number; type: string; quota: number; count: number }>> {
    const rows: Raw[] = await this.dataSource.query(
      "SELECT (created_at - (created_at % ?)) AS bucket, type, SUM(quota) AS q, COUNT(*) AS n FROM logs WHERE type IN ('consume', 'refund') AND created_at >= ? " +
        'GROUP BY bucket, type',
      [bucketMs, fromMs],
    );
    return rows.map((row) => ({ bucket: num(row.bucket), type: String(row.type), quota: num(row.q), count: num(row.n) }));
  }

  /** Net quota charged since `from` per model (charges minus refunds), positive. */
  async netQuotaByModel(fromMs: number): Promise<Map<string, number>> {
    const rows: Raw[] = await this.dataSource.query(
      "SELECT model, SUM(quota) AS q FROM logs WHERE type IN ('consume', 'refund') AND created_at >= ? AND model IS NOT NULL GROUP BY model",
      [fromMs],
    );
    return new Map(rows.map((row) => [String(row.model), -num(row.q)]));
  }

  /** Upstream calls since `from` per bucket (every channel), for the latency and error-rate charts. */
  async upstreamByBucket(fromMs: number, bucketMs: number): Promise<Array<UpstreamCallCounts & { bucket: number }>> {
    const histogram = LATENCY_BUCKET_COLUMNS.map((name) => `SUM(${name}) AS ${name}`).join(', ');
    const rows: Raw[] = await this.dataSource.query(
      `SELECT (minute - (minute % ?)) AS bucket, SUM(calls) AS calls, SUM(errors) AS errors, SUM(latency_sum_ms) AS latency, ${histogram} ` +
        'FROM upstream_call_stats WHERE minute >= ? GROUP BY bucket',
      [bucketMs, fromMs],
    );
    return rows.map((row) => ({
      bucket: num(row.bucket),
      channelId: 0,
      calls: num(row.calls),
      errors: num(row.errors),
      latencySumMs: num(row.latency),
      buckets: LATENCY_BUCKET_COLUMNS.map((name) => num(row[name])),
    }));
  }

  /** Upstream calls since `from` per channel, summed over every instance's minutes. */
  async upstreamByChannel(fromMs: number): Promise<UpstreamCallCounts[]> {
    const histogram = LATENCY_BUCKET_COLUMNS.map((name) => `SUM(${name}) AS ${name}`).join(', ');
    const rows: Raw[] = await this.dataSource.query(
      `SELECT channel_id, SUM(calls) AS calls, SUM(errors) AS errors, SUM(latency_sum_ms) AS latency, ${histogram} FROM upstream_call_stats WHERE minute >= ? GROUP BY channel_id`,
      [fromMs],
    );
    return rows.map((row) => ({
      channelId: num(row.channel_id),
      calls: num(row.calls),
      errors: num(row.errors),
      latencySumMs: num(row.latency),
      buckets: LATENCY_BUCKET_COLUMNS.map((name) => num(row[name])),
    }));
  }
}
