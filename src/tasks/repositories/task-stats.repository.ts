import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Repository } from 'typeorm';
import { FAILURE } from '../../upstream/failure-reason';
import { TaskEntity } from '../task.entity';
import { CHARGED_STATUSES, POLLABLE_STATUSES, type TaskStatus } from '../task-status';

/**
 * A task's outcome for the success rates: its status, but a client's cancel (a FAILURE for the
 * client's own reason) as `CANCELLED`, never a failure of its channel or model. Its one parameter is CANCELLED_REASON.
 */
const OUTCOME_SQL = "CASE WHEN status = 'FAILURE' AND fail_reason LIKE ? THEN 'CANCELLED' ELSE status END";
const CANCELLED_REASON = `${FAILURE.cancelled}%`;
/** Not ended: a submit under way, or a task its provider still works on. */
const IN_FLIGHT_STATUSES: TaskStatus[] = ['SUBMITTING', ...POLLABLE_STATUSES];

/** Counts over many tasks: the dashboard's and the admins' figures (outcomes, money per channel, stuck tasks), the metrics' gauges. */
@Injectable()
export class TaskStatsRepository {
  constructor(@InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>) {}

  countByStatus(): Promise<Array<{ status: string; count: number }>> {
    return this.tasks
      .createQueryBuilder('t')
      .select('t.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .groupBy('t.status')
      .getRawMany<{ status: string; count: string | number }>()
      .then((rows) => rows.map((row) => ({ status: row.status, count: Number(row.count) })));
  }

  /**
   * Tasks not ended (SUBMITTING and the polled states) per status and platform, with the oldest one's
   * creation time: one pass over the `(status, next_poll_at)` index, the same on every instance.
   */
  async inFlight(): Promise<Array<{ status: string; platform: string; count: number; oldestCreatedAt: number }>> {
    const rows = await this.tasks
      .createQueryBuilder('t')
      .select('t.status', 'status')
      .addSelect('t.platform', 'platform')
      .addSelect('COUNT(*)', 'count')
      .addSelect('MIN(t.created_at)', 'oldest')
      .where('t.status IN (:...statuses)', { statuses: IN_FLIGHT_STATUSES })
      .groupBy('t.status')
      .addGroupBy('t.platform')
      .getRawMany<{ status: string; platform: string; count: string | number; oldest: string | number }>();
    return rows.map((row) => ({
      status: row.status,
      platform: row.platform,
      count: Number(row.count),
      oldestCreatedAt: Number(row.oldest),
    }));
  }

  /** Tasks still not terminal whose poll was due before `dueBefore` (or still SUBMITTING, created before it), longest due first. */
  findStuck(dueBefore: number, limit: number): Promise<TaskEntity[]> {
    return this.tasks.find({
      where: [
        { status: In(POLLABLE_STATUSES), nextPollAt: LessThan(dueBefore) },
        { status: 'SUBMITTING', createdAt: LessThan(dueBefore) },
      ],
      order: { nextPollAt: 'ASC' },
      take: limit,
    });
  }

  /** How many tasks findStuck would list (without its limit), and when the oldest of them was created. */
  async stuckSummary(dueBefore: number): Promise<{ count: number; oldestCreatedAt: number | null }> {
    const row = await this.tasks
      .createQueryBuilder('t')
      .select('COUNT(*)', 'count')
      .addSelect('MIN(t.created_at)', 'oldest')
      .where('(t.status IN (:...pollable) AND t.next_poll_at < :due) OR (t.status = :submitting AND t.created_at < :due)', {
        pollable: POLLABLE_STATUSES,
        submitting: 'SUBMITTING',
        due: dueBefore,
      })
      .getRawOne<{ count: string | number; oldest: string | number | null }>();
    return {
      count: Number(row?.count ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    };
  }

  /** Tasks created since `fromMs` that were given up at their deadline and that their provider later finished or failed. */
  async countLateCompletionsSince(fromMs: number): Promise<number> {
    const rows: Array<{ n: string | number }> = await this.tasks.manager.query(
      'SELECT COUNT(*) AS n FROM tasks WHERE created_at >= ? AND late_completion IS NOT NULL',
      [fromMs],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Tasks created since `fromMs` per time bucket (`bucketMs` long) and current outcome (the dashboard's
   * chart): their status, a client's cancel as `CANCELLED` (OUTCOME_SQL).
   */
  async countByBucketAndStatus(fromMs: number, bucketMs: number): Promise<Array<{ bucket: number; status: string; count: number }>> {
    // `x - x % size` floors to a bucket on MySQL and SQLite alike (times are positive).
    const rows: Array<Record<string, string | number>> = await this.tasks.manager.query(
      `SELECT (created_at - (created_at % ?)) AS bucket, ${OUTCOME_SQL} AS outcome, COUNT(*) AS n FROM tasks WHERE created_at >= ? GROUP BY bucket, outcome`,
      [bucketMs, CANCELLED_REASON, fromMs],
    );
    return rows.map((row) => ({ bucket: Number(row.bucket), status: String(row.outcome), count: Number(row.n) }));
  }

  /** Tasks created since `fromMs` per channel (or model) and current outcome (a client's cancel as `CANCELLED`, as above). */
  async countByStatusPer(
    column: 'channel_id' | 'model',
    fromMs: number,
  ): Promise<Array<{ key: string | number | null; status: string; count: number }>> {
    const rows: Array<Record<string, string | number | null>> = await this.tasks.manager.query(
      `SELECT ${column} AS k, ${OUTCOME_SQL} AS outcome, COUNT(*) AS n FROM tasks WHERE created_at >= ? GROUP BY ${column}, outcome`,
      [CANCELLED_REASON, fromMs],
    );
    return rows.map((row) => ({ key: row.k, status: String(row.outcome), count: Number(row.n) }));
  }

  /**
   * Per channel, over the tasks created since `fromMs`: what customers paid for them (their charges
   * that stand: accepted and not failed, so not refunded), and what the providers reported of their
   * own cost, summed per unit (with how many tasks reported it).
   */
  async chargedAndProviderUsageByChannel(fromMs: number): Promise<{
    charged: Map<number | null, number>;
    usage: Array<{ channelId: number | null; unit: string; amount: number; tasks: number }>;
  }> {
    const manager = this.tasks.manager;
    const [charged, usage]: Array<Array<Record<string, string | number | null>>> = await Promise.all([
      manager.query(
        `SELECT channel_id AS k, SUM(quota) AS q FROM tasks WHERE created_at >= ? AND status IN (${CHARGED_STATUSES.map(() => '?').join(', ')}) GROUP BY channel_id`,
        [fromMs, ...CHARGED_STATUSES],
      ),
      // Each attempt's report counts for the channel that made it, not the one its task is on now.
      manager.query(
        `SELECT p.channel_id AS k, p.unit AS u, SUM(p.amount) AS a, COUNT(DISTINCT p.task_row_id) AS n FROM task_provider_usage p ` +
          `JOIN tasks t ON t.id = p.task_row_id WHERE t.created_at >= ? GROUP BY p.channel_id, p.unit`,
        [fromMs],
      ),
    ]);
    const channelOf = (key: string | number | null) => (key === null ? null : Number(key));
    return {
      charged: new Map(charged.map((row) => [channelOf(row.k), Number(row.q ?? 0)])),
      usage: usage
        .filter((row) => typeof row.u === 'string' && row.u !== '')
        .map((row) => ({ channelId: channelOf(row.k), unit: String(row.u), amount: Number(row.a ?? 0), tasks: Number(row.n) })),
    };
  }
}
