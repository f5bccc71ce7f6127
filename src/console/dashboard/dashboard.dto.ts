import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CurrencyDto } from '../currency.view';
import { ChannelBreakerDto } from '../dto/admin-responses.dto';
import { DASHBOARD_RANGE_NAMES, type DashboardRange } from './dashboard-range';

export class DashboardQueryDto {
  @ApiPropertyOptional({
    enum: DASHBOARD_RANGE_NAMES,
    default: '24h',
    description: 'buckets: 1h by the minute, 24h by the hour, 7d by 6 hours, 30d by the day',
  })
  @IsOptional()
  @IsIn(DASHBOARD_RANGE_NAMES)
  range: DashboardRange = '24h';
}

export class DashboardRefundsDto {
  @ApiProperty({ description: 'refunds in the range' }) count: number;
  @ApiProperty({ description: 'quota refunded in the range' }) quota: number;
  @ApiProperty({ type: [Number], description: 'quota refunded per bucket' }) by_bucket: number[];
}

export class DashboardChannelDto {
  @ApiProperty({ type: Number, nullable: true }) channel_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'null once the channel was deleted' }) channel_name: string | null;
  @ApiProperty({ description: 'tasks created in the range' }) total: number;
  @ApiProperty() success: number;
  @ApiProperty({ description: "accepted, then failed (refused submits are in `rejected`, clients' cancels in `cancelled`)" })
  failure: number;
  @ApiProperty({ description: "cancelled by the client: not the channel's failure, left out of the success rate" }) cancelled: number;
  @ApiProperty({ description: 'refused at submit (never accepted, nothing charged)' }) rejected: number;
  @ApiProperty({ type: Number, nullable: true, description: 'success / (success + failure); null before any finished' }) success_rate:
    number | null;
  @ApiProperty({
    description: "quota customers paid for the channel's tasks created in the range: the charges that stand (a failed task's is refunded)",
  })
  net_charged: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: { credits: 120 },
    description:
      "what the channel's provider reported of its own cost of those tasks, summed per unit (fal_billable_units, credits, usd_ticks, predict_seconds, video_seconds, tokens); {} when it reports none",
  })
  provider_usage: Record<string, number>;
  @ApiProperty({ description: 'how many of those tasks had a cost reported' }) provider_usage_tasks: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.05,
    description: 'the reported cost in USD where its unit converts by itself (usd_ticks: 1e10 ticks = 1 USD); null when none does',
  })
  provider_usd: number | null;
}

export class DashboardModelDto {
  @ApiProperty() model: string;
  @ApiProperty() total: number;
  @ApiProperty() success: number;
  @ApiProperty() failure: number;
  @ApiProperty({ description: 'cancelled by the client, left out of the success rate' }) cancelled: number;
  @ApiProperty() rejected: number;
  @ApiProperty({ type: Number, nullable: true, description: 'success / (success + failure)' }) success_rate: number | null;
  @ApiProperty({ description: 'net quota charged in the range (charges minus refunds)' }) quota: number;
}

/** One channel's or model's money over the range, as the operator's usage report (GET /api/admin/usage) has it. */
export class DashboardMarginRowDto {
  @ApiProperty({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    nullable: true,
    description: 'the channel id (by_channel) or the model id (by_model); null for tasks without a channel',
  })
  key: number | string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "by_channel: the channel's name (null once deleted)" }) name?:
    string | null;
  @ApiProperty({ description: 'tasks that ended (completed or failed) in the range' }) tasks: number;
  @ApiProperty({ description: 'seconds of video delivered' }) seconds: number;
  @ApiProperty({ description: 'quota paid in the end' }) quota: number;
  @ApiProperty({ description: 'USD charged at submit' }) usd_charged: number;
  @ApiProperty({ description: 'USD refunded since (failures, settlement on what was delivered)' }) usd_refunded: number;
  @ApiProperty({
    description: "what the providers cost, USD: their own figure (xAI), their units at the channel's usd_per_unit, else the route's cost",
  })
  provider_cost_usd: number;
  @ApiProperty({ description: 'usd_charged - usd_refunded - provider_cost_usd' }) margin_usd: number;
  @ApiProperty({ description: 'completed tasks whose provider cost is unknown (not in provider_cost_usd)' }) tasks_without_cost: number;
}

export class DashboardMarginDto {
  @ApiProperty({ type: [DashboardMarginRowDto], description: 'the 10 channels that charged the most USD, most first' })
  by_channel: DashboardMarginRowDto[];
  @ApiProperty({ type: [DashboardMarginRowDto], description: 'the 10 models that charged the most USD, most first' })
  by_model: DashboardMarginRowDto[];
}

export class DashboardUpstreamDto {
  @ApiProperty() channel_id: number;
  @ApiProperty({ type: String, nullable: true }) channel_name: string | null;
  @ApiProperty({ description: 'submits and polls, every instance' }) calls: number;
  @ApiProperty({ description: 'calls without a usable answer (transport or provider trouble)' }) errors: number;
  @ApiProperty({ type: Number, nullable: true }) error_rate: number | null;
  @ApiProperty({ type: Number, nullable: true }) latency_avg_ms: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'from a histogram (100, 250, 500 ms, 1, 2.5, 5, 10 s): the bound of the bucket holding the 95th percentile',
  })
  latency_p95_ms: number | null;
}

export class DashboardUpstreamSeriesDto {
  @ApiProperty({ type: [Number], description: 'upstream calls per bucket, every channel and instance' }) calls: number[];
  @ApiProperty({ type: [Number] }) errors: number[];
  @ApiProperty({ type: [Number], nullable: true, description: 'null in a bucket without calls' }) latency_avg_ms: Array<number | null>;
  @ApiProperty({ type: [Number], nullable: true, description: 'from the histogram, as in `upstream`' }) latency_p95_ms: Array<
    number | null
  >;
}

export class DashboardBreakerDto extends ChannelBreakerDto {
  @ApiProperty() channel_id: number;
  @ApiProperty({ type: String, nullable: true }) channel_name: string | null;
}

export class DashboardStuckDto {
  @ApiProperty({ description: 'as GET /api/admin/tasks/stuck, without its limit' }) count: number;
  @ApiProperty({ type: Number, nullable: true, description: 'seconds since the oldest stuck task was created' }) oldest_age_s:
    number | null;
}

export class DashboardWebhooksDto {
  @ApiProperty({ description: 'endpoints failing or disabled now (GET /api/admin/webhooks/failing)' }) failing_endpoints: number;
  @ApiProperty({ description: 'delivery attempts that failed in the range' }) failed_deliveries: number;
}

export class DashboardVideoStoreDto {
  @ApiProperty({ enum: ['file', 's3', 'none'] }) kind: string;
  @ApiProperty({ description: 'bytes of archived videos and thumbnails' }) bytes: number;
  @ApiProperty() objects: number;
}

export class DashboardHousekeepingDto {
  @ApiProperty({ description: 'rows deleted by housekeeping and TASK_RETENTION since this instance started' }) rows_deleted: number;
  @ApiProperty({ description: 'bytes freed (stored videos and thumbnails, portrait uploads) since this instance started' })
  bytes_deleted: number;
  @ApiProperty({ description: 'ended tasks deleted by TASK_RETENTION since this instance started (also in rows_deleted)' })
  tasks_deleted: number;
  @ApiProperty({ description: 'TASK_RETENTION in seconds; 0: every task is kept' }) task_retention_s: number;
}

export class DashboardDto {
  @ApiProperty({ enum: DASHBOARD_RANGE_NAMES }) range: string;
  @ApiProperty({ example: 3600 }) bucket_seconds: number;
  @ApiProperty({ description: 'Unix seconds: start of the first bucket' }) from: number;
  @ApiProperty({ description: 'Unix seconds: now (the last bucket is partial)' }) to: number;
  @ApiProperty({ type: [Number], description: 'bucket starts, Unix seconds' }) buckets: number[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'number' } },
    description:
      "tasks created per bucket, by their current unified status (every status, zeros included); a client's cancel is CANCELLED, not FAILURE",
    example: { SUCCESS: [3, 5], FAILURE: [0, 1], CANCELLED: [1, 0] },
  })
  tasks_by_status: Record<string, number[]>;
  @ApiProperty({ type: [Number], description: 'net quota charged per bucket (charges minus refunds)' }) quota_by_bucket: number[];
  @ApiProperty({ type: DashboardRefundsDto }) refunds: DashboardRefundsDto;
  @ApiProperty({
    description:
      'tasks created in the range that were given up at TASK_TIMEOUT_MS (failed `upstream timeout`, refunded) and that their provider finished or failed later: each has `late_completion` in its admin detail',
  })
  late_completions: number;
  @ApiProperty({ type: [DashboardChannelDto] }) by_channel: DashboardChannelDto[];
  @ApiProperty({ type: [DashboardModelDto] }) by_model: DashboardModelDto[];
  @ApiProperty({
    type: DashboardMarginDto,
    description:
      'the margin per channel and per model over the tasks that ended in the range (from `from` to now), as GET /api/admin/usage?group_by=channel|model answers it: the top 10 of each by USD charged',
  })
  margin: DashboardMarginDto;
  @ApiProperty({ type: [DashboardUpstreamDto] }) upstream: DashboardUpstreamDto[];
  @ApiProperty({ type: DashboardUpstreamSeriesDto, description: 'the same over time, for the latency and error-rate charts' })
  upstream_by_bucket: DashboardUpstreamSeriesDto;
  @ApiProperty({
    type: [DashboardBreakerDto],
    description: 'enabled channels whose breaker is open or half-open now, as this instance knows it',
  })
  breakers: DashboardBreakerDto[];
  @ApiProperty({ type: DashboardStuckDto }) stuck_tasks: DashboardStuckDto;
  @ApiProperty({ type: DashboardWebhooksDto }) webhooks: DashboardWebhooksDto;
  @ApiProperty({ type: DashboardVideoStoreDto }) video_store: DashboardVideoStoreDto;
  @ApiProperty({ type: DashboardHousekeepingDto }) housekeeping: DashboardHousekeepingDto;
  @ApiProperty({ type: CurrencyDto }) currency: CurrencyDto;
}
