import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { deleteExpiredBatch } from '../database/delete-expired-batch';
import { TransactionRunner } from '../database/transaction-runner';
import { upsertAddingSql } from '../database/upsert-adding';
import { UpstreamCallStatsEntity } from './upstream-call-stats.entity';
import { LATENCY_BUCKET_COLUMNS } from './upstream-latency-buckets';

/** Calls to one channel, their failures and latencies (a sum and a count per LATENCY_BOUNDS_MS bucket): what `upstream_call_stats` adds up. */
export interface UpstreamCallCounts {
  channelId: number;
  calls: number;
  errors: number;
  latencySumMs: number;
  buckets: number[];
}

type Raw = Record<string, string | number | null>;

const COLUMNS = ['minute', 'channel_id', 'calls', 'errors', 'latency_sum_ms', ...LATENCY_BUCKET_COLUMNS];

/**
 * The upstream calls per minute and channel (`upstream_call_stats`, which only UpstreamModule reads
 * and writes): every instance adds its counts to the same rows; reads sum over every instance's minutes.
 */
@Injectable()
export class UpstreamCallStatsRepository {
  constructor(
    @InjectRepository(UpstreamCallStatsEntity) private readonly stats: Repository<UpstreamCallStatsEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Adds the counts of each (minute, channel) to its row, in one statement. */
  async add(rows: Array<UpstreamCallCounts & { minute: number }>): Promise<void> {
    if (rows.length === 0) return;
    const params = rows.flatMap((row) => [row.minute, row.channelId, row.calls, row.errors, row.latencySumMs, ...row.buckets]);
    await this.transactions.runStatement((manager) =>
      manager.query(
        upsertAddingSql(manager, 'upstream_call_stats', {
          columns: COLUMNS,
          key: ['minute', 'channel_id'],
          added: COLUMNS.slice(2),
          rows: rows.length,
        }),
        params,
      ),
    );
  }

  /** Upstream calls since `fromMs` per time bucket (`bucketMs` long), every channel together (channelId 0). */
  async totalsByBucket(fromMs: number, bucketMs: number): Promise<Array<UpstreamCallCounts & { bucket: number }>> {
    // `x - x % size` floors to a bucket on every database (times are positive).
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

  /** Housekeeping: deletes up to `limit` minutes of statistics older than `before`; returns how many rows. */
  deleteBefore(before: number, limit: number): Promise<number> {
    return deleteExpiredBatch(this.transactions, UpstreamCallStatsEntity, { minute: LessThan(before) }, limit);
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
