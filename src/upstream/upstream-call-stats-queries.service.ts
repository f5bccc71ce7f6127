import { Injectable } from '@nestjs/common';
import { type UpstreamCallCounts, UpstreamCallStatsRepository } from './upstream-call-stats.repository';

/** What the other modules (the dashboard) may read of `upstream_call_stats`, summed in the database over every instance's minutes. */
@Injectable()
export class UpstreamCallStatsQueries {
  constructor(private readonly stats: UpstreamCallStatsRepository) {}

  /** Upstream calls since `fromMs` per time bucket (`bucketMs` long), every channel together (channelId 0). */
  totalsByBucket(fromMs: number, bucketMs: number): Promise<Array<UpstreamCallCounts & { bucket: number }>> {
    return this.stats.totalsByBucket(fromMs, bucketMs);
  }

  /** Upstream calls since `fromMs` per channel. */
  totalsByChannel(fromMs: number): Promise<UpstreamCallCounts[]> {
    return this.stats.totalsByChannel(fromMs);
  }
}
