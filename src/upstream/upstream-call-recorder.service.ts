import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/runtime/clock';
import { PeriodicWriter } from '../common/runtime/periodic-writer';
import { type UpstreamCallCounts, UpstreamCallStatsRepository } from './upstream-call-stats.repository';
import { LATENCY_BOUNDS_MS, latencyBucketOf } from './upstream-latency-buckets';

const MINUTE_MS = 60_000;
/** How often this instance adds what it counted to the shared table: far fewer writes than calls. */
const FLUSH_INTERVAL_MS = 2_000;

interface MinuteStats extends UpstreamCallCounts {
  minute: number;
}

/**
 * Counts upstream calls per minute and channel in memory and adds them to `upstream_call_stats`
 * every couple of seconds in one upsert, so the dashboard's latency and error rate cover every
 * instance while a poll costs no write of its own. A failed flush keeps its counts for the next.
 */
@Injectable()
export class UpstreamCallRecorder extends PeriodicWriter {
  private readonly logger = new Logger('UpstreamCallRecorder');
  private pending = new Map<string, MinuteStats>();

  constructor(
    private readonly stats: UpstreamCallStatsRepository,
    private readonly clock: Clock,
  ) {
    super(FLUSH_INTERVAL_MS);
  }

  /** Starts timing a call on `channelId`; the returned function ends it, `failed` when the call did not get a usable answer. */
  start(channelId: number): (failed: boolean) => void {
    const started = performance.now();
    return (failed) => this.record(channelId, performance.now() - started, failed);
  }

  record(channelId: number, latencyMs: number, failed: boolean): void {
    const now = this.clock.now();
    const minute = now - (now % MINUTE_MS);
    const key = `${minute}|${channelId}`;
    const stats = this.pending.get(key) ?? {
      minute,
      channelId,
      calls: 0,
      errors: 0,
      latencySumMs: 0,
      buckets: new Array(LATENCY_BOUNDS_MS.length + 1).fill(0),
    };
    stats.calls++;
    if (failed) stats.errors++;
    stats.latencySumMs += Math.round(latencyMs);
    stats.buckets[latencyBucketOf(latencyMs)]++;
    this.pending.set(key, stats);
  }

  protected async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.stats.add(rows);
    } catch (error) {
      // Counted again with the next flush (merged with what came meanwhile).
      for (const row of rows) this.merge(row);
      this.logger.warn(
        `upstream call stats not written (${rows.length} rows kept for the next try): ${(error as Error)?.message ?? error}`,
      );
    }
  }

  private merge(row: MinuteStats): void {
    const key = `${row.minute}|${row.channelId}`;
    const current = this.pending.get(key);
    if (!current) return void this.pending.set(key, row);
    current.calls += row.calls;
    current.errors += row.errors;
    current.latencySumMs += row.latencySumMs;
    row.buckets.forEach((count, i) => (current.buckets[i] += count));
  }
}
