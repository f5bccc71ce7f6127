import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { UpstreamCallCounts } from './upstream-call-recorder.service';
import { UpstreamCallStatsEntity } from './upstream-call-stats.entity';
import { LATENCY_BUCKET_COLUMNS } from './upstream-latency-buckets';

type Raw = Record<string, string | number | null>;

/** What the other modules (the dashboard) may read of `upstream_call_stats`, summed in the database over every instance's minutes. */
@Injectable()
export class UpstreamCallStatsQueries {
  constructor(@InjectRepository(UpstreamCallStatsEntity) private readonly stats: Repository<UpstreamCallStatsEntity>) {}

  /** Upstream calls since `fromMs` per time bucket (`bucketMs` long), every channel together (channelId 0). */
  async totalsByBucket(fromMs: number, bucketMs: number): Promise<Array<UpstreamCallCounts & { bucket: number }>> {
    // `x - x % size` floors to a bucket on MySQL and SQLite alike (times are positive).
    const rows: Raw[] = await this.stats.manager.query(
      `SELECT (minute - (minute % ?)) AS bucket, SUM(calls) AS calls, SUM(errors) AS errors, SUM(latency_sum_ms) AS latency, ${histogramSums()} ` +
        'FROM upstream_call_stats WHERE minute >= ? GROUP BY bucket',
      [bucketMs, fromMs],
    );
    return rows.map((row) => ({ bucket: Number(row.bucket), ...countsOf(row, 0) }));
  }

  /** Upstream calls since `fromMs` per channel. */
  async totalsByChannel(fromMs: number): Promise<UpstreamCallCounts[]> {
    const rows: Raw[] = await this.stats.manager.query(
      `SELECT channel_id, SUM(calls) AS calls, SUM(errors) AS errors, SUM(latency_sum_ms) AS latency, ${histogramSums()} FROM upstream_call_stats WHERE minute >= ? GROUP BY channel_id`,
      [fromMs],
    );
    return rows.map((row) => countsOf(row, Number(row.channel_id)));
  }
}

const histogramSums = (): string => LATENCY_BUCKET_COLUMNS.map((name) => `SUM(${name}) AS ${name}`).join(', ');

function countsOf(row: Raw, channelId: number): UpstreamCallCounts {
  return {
    channelId,
    calls: Number(row.calls),
    errors: Number(row.errors),
    latencySumMs: Number(row.latency),
    buckets: LATENCY_BUCKET_COLUMNS.map((name) => Number(row[name])),
  };
}
