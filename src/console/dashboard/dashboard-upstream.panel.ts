import { Injectable } from '@nestjs/common';
import { ChannelBreakers } from '../../upstream/breaker/channel-breakers.service';
import { UpstreamCallRecorder } from '../../upstream/upstream-call-recorder.service';
import { UpstreamCallStatsQueries } from '../../upstream/upstream-call-stats-queries.service';
import { percentileFromBuckets } from '../../upstream/upstream-latency-buckets';
import type { BucketWindow } from './dashboard-range';
import type { DashboardDto, DashboardUpstreamDto } from './dashboard.dto';

const rate = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

type UpstreamRows = Awaited<ReturnType<UpstreamCallStatsQueries['totalsByChannel']>>;
type UpstreamBucketRows = Awaited<ReturnType<UpstreamCallStatsQueries['totalsByBucket']>>;

/** The dashboard's upstream panels: calls, errors and latency per channel and over time, and the breakers not closed. */
@Injectable()
export class DashboardUpstreamPanel {
  constructor(
    private readonly callStats: UpstreamCallStatsQueries,
    private readonly calls: UpstreamCallRecorder,
    private readonly breakers: ChannelBreakers,
  ) {}

  /** This instance's latest upstream calls join the shared table first (the others' are at most a flush behind). */
  flush(): Promise<void> {
    return this.calls.flush();
  }

  totalsByChannel(fromMs: number): Promise<UpstreamRows> {
    return this.callStats.totalsByChannel(fromMs);
  }

  totalsByBucket(fromMs: number, bucketMs: number): Promise<UpstreamBucketRows> {
    return this.callStats.totalsByBucket(fromMs, bucketMs);
  }

  /** Per channel, in channel order. */
  upstream(rows: UpstreamRows, names: Map<number, string>): DashboardUpstreamDto[] {
    return rows
      .map((row): DashboardUpstreamDto => ({
        channel_id: row.channelId,
        channel_name: names.get(row.channelId) ?? null,
        calls: row.calls,
        errors: row.errors,
        error_rate: rate(row.errors, row.calls),
        latency_avg_ms: row.calls > 0 ? Math.round(row.latencySumMs / row.calls) : null,
        latency_p95_ms: percentileFromBuckets(row.buckets),
      }))
      .sort((a, b) => a.channel_id - b.channel_id);
  }

  /** Per bucket of the window. */
  series(rows: UpstreamBucketRows, window: BucketWindow): DashboardDto['upstream_by_bucket'] {
    const upstreamSeries = {
      calls: new Array<number>(window.starts.length).fill(0),
      errors: new Array<number>(window.starts.length).fill(0),
      latency_avg_ms: window.starts.map((): number | null => null),
      latency_p95_ms: window.starts.map((): number | null => null),
    };
    for (const row of rows) {
      const index = window.indexOf(row.bucket);
      if (index < 0) continue;
      upstreamSeries.calls[index] = row.calls;
      upstreamSeries.errors[index] = row.errors;
      upstreamSeries.latency_avg_ms[index] = row.calls > 0 ? Math.round(row.latencySumMs / row.calls) : null;
      upstreamSeries.latency_p95_ms[index] = percentileFromBuckets(row.buckets);
    }
    return upstreamSeries;
  }

  /** Of the channels submits may go to: a disabled one's breaker routes nothing. */
  breakersOf(names: Map<number, string>, enabled: Set<number>): DashboardDto['breakers'] {
    return this.breakers
      .notClosed()
      .filter(({ channelId }) => enabled.has(channelId))
      .map(({ channelId, breaker }) => ({ channel_id: channelId, channel_name: names.get(channelId) ?? null, ...breaker }));
  }
}
