import { Inject, Injectable } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { quotaPerUsd } from '../billing/quota-usd';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ChannelsService } from '../upstream/channels.service';
import { TaskUsageRepository } from './repositories/task-usage.repository';
import {
  byKey,
  customerRow,
  CustomerUsageRow,
  hasNames,
  operatorRow,
  OperatorUsageRow,
  UsageGroupBy,
  usageRange,
  UsageReport,
  UsageTotals,
} from './usage-report';

/** What a report is asked for: `from` and `to` as the client wrote them (checked by usageRange), the grouping. */
export interface UsageReportQuery {
  from?: string;
  to?: string;
  groupBy: UsageGroupBy;
}

/**
 * The usage reports over ended tasks (billing on what was delivered): the operator's, over every
 * account with what was charged, refunded, what the providers cost and the margin; a customer's, over
 * their own tasks only, with what they paid. The sums are the database's (TaskUsageRepository.usageTotals).
 */
@Injectable()
export class UsageReports {
  constructor(
    private readonly tasks: TaskUsageRepository,
    private readonly channels: ChannelsService,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async forOperator(query: UsageReportQuery): Promise<UsageReport<OperatorUsageRow>> {
    const range = usageRange(query, this.clock.now());
    const totals = await this.tasks.usageTotals({ ...range, groupBy: query.groupBy });
    const names = await this.namesOf(query.groupBy, totals);
    const perUsd = quotaPerUsd(this.config);
    const rows = totals.map((row) => operatorRow(row, perUsd, query.groupBy, names ? nameOf(names, row) : undefined));
    return this.report(range, query.groupBy, rows);
  }

  async forCustomer(userId: number, query: UsageReportQuery): Promise<UsageReport<CustomerUsageRow>> {
    const range = usageRange(query, this.clock.now());
    const totals = await this.tasks.usageTotals({ ...range, groupBy: query.groupBy, userId });
    const names = query.groupBy === 'key' ? await this.keys.namesOf(idsOf(totals), userId) : undefined;
    const perUsd = quotaPerUsd(this.config);
    const rows = totals.map((row) => customerRow(row, perUsd, query.groupBy, names ? nameOf(names, row) : undefined));
    return this.report(range, query.groupBy, rows);
  }

  private report<Row extends { key: string | number | null }>(
    range: { fromMs: number; toMs: number },
    groupBy: UsageGroupBy,
    rows: Row[],
  ): UsageReport<Row> {
    return { from: Math.floor(range.fromMs / 1000), to: Math.ceil(range.toMs / 1000), group_by: groupBy, data: rows.sort(byKey) };
  }

  private async namesOf(groupBy: UsageGroupBy, totals: UsageTotals[]): Promise<Map<number, string> | undefined> {
    if (!hasNames(groupBy)) return undefined;
    if (groupBy === 'key') return this.keys.namesOf(idsOf(totals));
    return new Map((await this.channels.list()).map((channel) => [channel.id, channel.name]));
  }
}

const idsOf = (totals: UsageTotals[]): number[] => totals.flatMap((row) => (row.key === null ? [] : [Number(row.key)]));
const nameOf = (names: Map<number, string>, row: UsageTotals): string | null =>
  row.key === null ? null : (names.get(Number(row.key)) ?? null);
