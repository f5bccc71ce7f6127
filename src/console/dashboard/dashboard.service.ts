import { Inject, Injectable } from '@nestjs/common';
import { LogTotalsService } from '../../billing/log-totals.service';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { TaskQueries } from '../../tasks/task-queries.service';
import type { TaskStatus } from '../../tasks/task-status';
import type { OperatorUsageRow } from '../../tasks/usage-report';
import { UsageReports } from '../../tasks/usage-reports.service';
import { ChannelsService } from '../../upstream/channels.service';
import { providerUsageUsd } from '../../upstream/provider-usage';
import { toCurrencyView } from '../currency.view';
import { bucketWindow, DashboardRange } from './dashboard-range';
import type { DashboardChannelDto, DashboardDto, DashboardMarginRowDto, DashboardModelDto } from './dashboard.dto';
import { DashboardOperationsPanel } from './dashboard-operations.panel';
import { DashboardUpstreamPanel } from './dashboard-upstream.panel';

/** The task statuses, and a client's cancel apart from FAILURE (TaskStatsRepository's outcome). */
const STATUSES: Array<TaskStatus | 'CANCELLED'> = [
  'SUBMITTING',
  'NOT_START',
  'QUEUED',
  'IN_PROGRESS',
  'SUCCESS',
  'FAILURE',
  'CANCELLED',
  'REJECTED',
];

/** How many channels and models the margin tables show: the ones that charged the most. */
const MARGIN_ROWS = 10;

const rate = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const seconds = (ms: number): number => Math.floor(ms / 1000);

interface Outcomes {
  total: number;
  success: number;
  failure: number;
  cancelled: number;
  rejected: number;
  success_rate: number | null;
}

/**
 * The admin dashboard over one time range: tasks and money here; upstream health (with the channels' breakers) from
 * DashboardUpstreamPanel; stuck work, webhooks, the video store and housekeeping from DashboardOperationsPanel.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly tasks: TaskQueries,
    private readonly logTotals: LogTotalsService,
    private readonly channels: ChannelsService,
    private readonly upstreamPanel: DashboardUpstreamPanel,
    private readonly operations: DashboardOperationsPanel,
    private readonly usage: UsageReports,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async build(range: DashboardRange): Promise<DashboardDto> {
    await this.upstreamPanel.flush();
    const now = this.clock.now();
    const window = bucketWindow(range, now);
    const [
      byBucket,
      byChannel,
      byModel,
      ledger,
      modelQuota,
      upstream,
      upstreamBuckets,
      channels,
      operations,
      providerCosts,
      lateCompletions,
      marginByChannel,
      marginByModel,
    ] = await Promise.all([
      this.tasks.countByBucketAndStatus(window.fromMs, window.bucketMs),
      this.tasks.countByStatusPer('channel_id', window.fromMs),
      this.tasks.countByStatusPer('model', window.fromMs),
      this.logTotals.chargesAndRefundsByBucket(window.fromMs, window.bucketMs),
      this.logTotals.netChargedByModel(window.fromMs),
      this.upstreamPanel.totalsByChannel(window.fromMs),
      this.upstreamPanel.totalsByBucket(window.fromMs, window.bucketMs),
      this.channels.list(),
      this.operations.panels(now, window.fromMs),
      this.tasks.chargedAndProviderUsageByChannel(window.fromMs),
      this.tasks.countLateCompletionsSince(window.fromMs),
      this.marginRows('channel', window.fromMs),
      this.marginRows('model', window.fromMs),
    ]);
    const names = new Map(channels.map((channel) => [channel.id, channel.name]));
    const enabled = new Set(channels.filter((channel) => channel.status === 'enabled').map((channel) => channel.id));
    const zeros = () => new Array<number>(window.starts.length).fill(0);

    const tasksByStatus = Object.fromEntries(STATUSES.map((status) => [status, zeros()]));
    for (const row of byBucket) {
      const index = window.indexOf(row.bucket);
      if (index < 0) continue;
      (tasksByStatus[row.status] ??= zeros())[index] += row.count;
    }

    const quotaByBucket = zeros();
    const refundByBucket = zeros();
    let refundCount = 0;
    for (const row of ledger) {
      const index = window.indexOf(row.bucket);
      if (index < 0) continue;
      // Charges are negative in the ledger, refunds positive: net charged is minus their sum.
      quotaByBucket[index] -= row.quota;
      if (row.type === 'refund') {
        refundByBucket[index] += row.quota;
        refundCount += row.count;
      }
    }

    const perChannel = outcomesBy(byChannel);
    // A channel whose provider ran a failed attempt of a task now on another channel still shows its cost.
    for (const row of providerCosts.usage) if (!perChannel.has(row.channelId)) perChannel.set(row.channelId, noOutcomes());
    const perModel = outcomesBy(byModel);
    return {
      range,
      bucket_seconds: window.bucketMs / 1000,
      from: seconds(window.fromMs),
      to: seconds(now),
      buckets: window.starts.map(seconds),
      tasks_by_status: tasksByStatus,
      quota_by_bucket: quotaByBucket,
      refunds: { count: refundCount, quota: refundByBucket.reduce((sum, value) => sum + value, 0), by_bucket: refundByBucket },
      late_completions: lateCompletions,
      by_channel: [...perChannel].map(([key, outcomes]): DashboardChannelDto => {
        const channelId = key === null ? null : Number(key);
        return {
          channel_id: channelId,
          channel_name: channelId === null ? null : (names.get(channelId) ?? null),
          ...outcomes,
          net_charged: providerCosts.charged.get(channelId) ?? 0,
          ...providerCostOf(providerCosts.usage.filter((row) => row.channelId === channelId)),
        };
      }),
      by_model: [...perModel]
        .map(([key, outcomes]): DashboardModelDto => ({ model: String(key), ...outcomes, quota: modelQuota.get(String(key)) ?? 0 }))
        .sort((a, b) => b.total - a.total || a.model.localeCompare(b.model)),
      margin: { by_channel: marginByChannel, by_model: marginByModel },
      upstream: this.upstreamPanel.upstream(upstream, names),
      upstream_by_bucket: this.upstreamPanel.series(upstreamBuckets, window),
      stuck_tasks: operations.stuck_tasks,
      webhooks: operations.webhooks,
      video_store: operations.video_store,
      breakers: this.upstreamPanel.breakersOf(names, enabled),
      housekeeping: operations.housekeeping,
      currency: toCurrencyView(this.config),
    };
  }

  /** The operator's usage report over the tasks that ended since `fromMs`, by channel or model: the top rows by USD charged. */
  private async marginRows(groupBy: 'channel' | 'model', fromMs: number): Promise<DashboardMarginRowDto[]> {
    const report = await this.usage.forOperator({ from: String(Math.floor(fromMs / 1000)), groupBy });
    return report.data.sort(byCharged).slice(0, MARGIN_ROWS);
  }
}

const byCharged = (a: OperatorUsageRow, b: OperatorUsageRow): number =>
  b.usd_charged - a.usd_charged || String(a.key ?? '').localeCompare(String(b.key ?? ''));

/** A channel's reported provider cost: summed per unit, the tasks that reported one, and USD where the units convert. */
function providerCostOf(
  rows: Array<{ unit: string; amount: number; tasks: number }>,
): Pick<DashboardChannelDto, 'provider_usage' | 'provider_usage_tasks' | 'provider_usd'> {
  const usage: Record<string, number> = {};
  let tasks = 0;
  let usd: number | null = null;
  for (const row of rows) {
    usage[row.unit] = (usage[row.unit] ?? 0) + row.amount;
    tasks += row.tasks;
    const inUsd = providerUsageUsd(row.unit, row.amount);
    if (inUsd !== null) usd = Math.round(((usd ?? 0) + inUsd) * 1e6) / 1e6;
  }
  return { provider_usage: usage, provider_usage_tasks: tasks, provider_usd: usd };
}

/**
 * Per key: tasks, successes, failures, clients' cancels and refused submits (both apart, as the chart
 * counts them) and the success rate of the accepted tasks that finished, cancels left out.
 */
const noOutcomes = (): Outcomes => ({ total: 0, success: 0, failure: 0, cancelled: 0, rejected: 0, success_rate: null });

function outcomesBy(rows: Array<{ key: string | number | null; status: string; count: number }>): Map<string | number | null, Outcomes> {
  const result = new Map<string | number | null, Outcomes>();
  for (const row of rows) {
    const key = row.key === null ? null : typeof row.key === 'number' ? row.key : /^\d+$/.test(row.key) ? Number(row.key) : row.key;
    const outcomes = result.get(key) ?? noOutcomes();
    outcomes.total += row.count;
    if (row.status === 'SUCCESS') outcomes.success += row.count;
    if (row.status === 'FAILURE') outcomes.failure += row.count;
    if (row.status === 'CANCELLED') outcomes.cancelled += row.count;
    if (row.status === 'REJECTED') outcomes.rejected += row.count;
    outcomes.success_rate = rate(outcomes.success, outcomes.success + outcomes.failure);
    result.set(key, outcomes);
  }
  return result;
}
