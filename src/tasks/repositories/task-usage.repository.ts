import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TaskEntity } from '../task.entity';
import { DAY_MS, type UsageGroupBy, type UsageTotals } from '../usage-report';

/**
 * The column (or expression) each usage report groups by, written into the SQL (never a client's text).
 * A day is the UTC day's start in ms: `x - x % DAY` floors on every database (times are positive) with no
 * division, whose integer rules differ (MySQL's `/` gives a decimal).
 */
const USAGE_GROUP_SQL: Record<UsageGroupBy, string> = {
  day: `(finish_time - (finish_time % ${DAY_MS}))`,
  model: 'model',
  channel: 'channel_id',
  platform: 'platform',
  user: 'user_id',
  key: 'api_key_id',
};

/** The usage reports' sums over ended tasks. */
@Injectable()
export class TaskUsageRepository {
  constructor(@InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>) {}

  /**
   * The usage reports' sums, in the database: the tasks that ended (succeeded or failed; a refused submit
   * never was the client's) in [fromMs, toMs) by `finish_time`, of one user or of everyone, per group.
   * A task ended before settlement kept its columns counts as paid in full if it succeeded, nothing if it
   * failed, 0 seconds and no known cost. Sums come back exact (BigInt) whatever the driver's type.
   */
  async usageTotals(query: { fromMs: number; toMs: number; groupBy: UsageGroupBy; userId?: number }): Promise<UsageTotals[]> {
    const key = USAGE_GROUP_SQL[query.groupBy];
    const rows: Array<Record<string, string | number | bigint | null>> = await this.tasks.manager.query(
      `SELECT ${key} AS k, COUNT(*) AS n, SUM(COALESCE(usage_seconds, 0)) AS s, ` +
        "SUM(CASE WHEN final_quota IS NOT NULL THEN final_quota WHEN status = 'SUCCESS' THEN quota ELSE 0 END) AS f, " +
        'SUM(quota) AS c, SUM(COALESCE(provider_cost_micro_usd, 0)) AS p, ' +
        "SUM(CASE WHEN status = 'SUCCESS' AND provider_cost_micro_usd IS NULL THEN 1 ELSE 0 END) AS u " +
        "FROM tasks WHERE finish_time >= ? AND finish_time < ? AND status IN ('SUCCESS', 'FAILURE')" +
        (query.userId !== undefined ? ' AND user_id = ?' : '') +
        ` GROUP BY ${key}`,
      query.userId !== undefined ? [query.fromMs, query.toMs, query.userId] : [query.fromMs, query.toMs],
    );
    const exact = (value: string | number | bigint | null) => (value === null ? 0n : BigInt(value));
    return rows.map((row) => ({
      key: row.k === null ? null : typeof row.k === 'bigint' ? Number(row.k) : row.k,
      tasks: exact(row.n),
      seconds: exact(row.s),
      finalQuota: exact(row.f),
      chargedQuota: exact(row.c),
      costMicroUsd: exact(row.p),
      tasksWithoutCost: exact(row.u),
    }));
  }
}
