import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, LessThan, Not, Repository, type QueryDeepPartialEntity } from 'typeorm';
import { caseById } from '../database/case-by-id';
import { jsonColumn } from '../database/column-transformers';
import { changedRows, insertEntity } from '../database/lean-writes';
import { LeanReads } from '../database/lean-reads';
import { selectForUpdate } from '../database/row-locks';
import { TransactionRunner } from '../database/transaction-runner';
import { claimLease } from '../jobs/lease-claim';
import type { ProviderUsage } from '../upstream/upstream-adapter';
import { FAILURE } from '../upstream/failure-reason';
import type { AttemptUsage } from './attempt-usage';
import { TaskEntity } from './task.entity';
import { TaskEventEntity } from './task-event.entity';
import type { TaskEventInput } from './task-events';
import type { TaskListQuery, TaskSort } from './task-list-query';
import { DAY_MS, type UsageGroupBy, type UsageTotals } from './usage-report';
import { CHARGED_STATUSES, POLLABLE_STATUSES, TERMINAL_STATUSES, TaskStatus } from './task-status';

/** What a poll that changed nothing but progress writes back. */
export interface PollRelease {
  id: number;
  progress: number;
  nextPollAt: number | null;
  upstreamResponse: unknown;
  /** The poll took progress past a quarter: the timeline records it (see passesProgressStep). */
  passedStep?: boolean;
}

/** What `markSubmitted` writes: the provider's id, when it accepted (also the update time), the first poll. */
export interface SubmitAccepted {
  upstreamTaskId: string;
  submitTime: number;
  nextPollAt: number;
  request?: Record<string, unknown>;
  /** What the provider said the task costs it, when its submit answer says so. */
  providerUsage?: ProviderUsage;
}

const MARK_SUBMITTED_SET =
  "UPDATE tasks SET status = 'NOT_START', upstream_task_id = ?, submit_time = ?, next_poll_at = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?";
const MARK_SUBMITTED_WHERE = " WHERE id = ? AND status = 'SUBMITTING' AND lease_owner = ?";
/** Each variant written once (by whether the request and the provider's usage are written too), so the driver keeps it prepared. */
const MARK_SUBMITTED_SQL = [false, true].map((request) =>
  [false, true].map(
    (usage) => `${MARK_SUBMITTED_SET}${request ? ', request = ?' : ''}${usage ? ', provider_usage = ?' : ''}${MARK_SUBMITTED_WHERE}`,
  ),
);
const INSERT_EVENT_SQL = 'INSERT INTO task_events (task_row_id, kind, status, progress, detail, at) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_USAGE =
  'INSERT INTO task_provider_usage (task_row_id, attempt, channel_id, unit, amount, reported_at) VALUES (?, ?, ?, ?, ?, ?)';
const USAGE_REPLACED = ['unit', 'amount', 'reported_at'];
/** An attempt's later report replaces its earlier one (the providers report a running total); per dialect, each written once. */
const RECORD_USAGE_SQL = {
  mysql: `${INSERT_USAGE} ON DUPLICATE KEY UPDATE ${USAGE_REPLACED.map((name) => `${name} = VALUES(${name})`).join(', ')}`,
  other: `${INSERT_USAGE} ON CONFLICT(task_row_id, attempt, channel_id) DO UPDATE SET ${USAGE_REPLACED.map((name) => `${name} = excluded.${name}`).join(', ')}`,
};

/** One attempt's report of its provider's own cost, as `providerUsageOf` reads it. */
export interface AttemptUsageRow {
  attempt: number;
  channelId: number;
  unit: string;
  amount: number;
  reportedAt: number;
}

/**
 * A reason another module keeps an ended task from TASK_RETENTION: an SQL condition on the task's
 * row, given its qualified `id` and `task_id` columns (e.g. an EXISTS on that module's own table).
 */
export type RetentionHold = (task: { id: string; taskId: string }) => string;

/** The column (and direction) each list order sorts by. */
const TASK_SORTS: Record<TaskSort, [string, 'ASC' | 'DESC']> = {
  created_at: ['t.created_at', 'ASC'],
  '-created_at': ['t.id', 'DESC'],
  status: ['t.status', 'ASC'],
  '-status': ['t.status', 'DESC'],
  model: ['t.model', 'ASC'],
  '-model': ['t.model', 'DESC'],
  cost: ['t.quota', 'ASC'],
  '-cost': ['t.quota', 'DESC'],
};

/** The lease owners of cancels start with this (see claimForCancel). */
export const CANCEL_LEASE_PREFIX = 'cancel:';

/** A poll's bookkeeping on the task itself: counted, never a row per poll. */
const pollCounted = (polledAt: number): QueryDeepPartialEntity<TaskEntity> => ({
  pollCount: () => 'poll_count + 1',
  firstPollAt: () => `COALESCE(first_poll_at, ${Math.floor(polledAt)})`,
  lastPollAt: Math.floor(polledAt),
});

/** Task persistence behind intention-revealing methods; atomic steps are atomic in SQL. */
/**
 * A task's outcome for the success rates: its status, but a client's cancel (a FAILURE for the
 * client's own reason) as `CANCELLED`, never a failure of its channel or model. Its one parameter is CANCELLED_REASON.
 */
const OUTCOME_SQL = "CASE WHEN status = 'FAILURE' AND fail_reason LIKE ? THEN 'CANCELLED' ELSE status END";
const CANCELLED_REASON = `${FAILURE.cancelled}%`;

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

@Injectable()
export class TaskRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
    private readonly reads: LeanReads,
  ) {}

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

  /**
   * Inside the caller's transaction (the one that writes the task's change from the same answer):
   * keeps a provider's report against the attempt and channel that made it, replacing that attempt's earlier report.
   */
  async recordProviderUsage(manager: EntityManager, report: AttemptUsage): Promise<void> {
    const sql = ['mysql', 'mariadb'].includes(manager.connection.options.type) ? RECORD_USAGE_SQL.mysql : RECORD_USAGE_SQL.other;
    const { taskRowId, attempt, channelId, usage, at } = report;
    await manager.query(sql, [taskRowId, attempt, channelId, usage.unit, usage.amount, at]);
  }

  /** What each attempt of a task reported of its provider's cost, first attempt first. */
  async providerUsageOf(id: number): Promise<AttemptUsageRow[]> {
    const rows: Array<Record<string, string | number>> = await this.tasks.manager.query(
      'SELECT attempt, channel_id, unit, amount, reported_at FROM task_provider_usage WHERE task_row_id = ? ORDER BY attempt, reported_at, id',
      [id],
    );
    return rows.map((row) => ({
      attempt: Number(row.attempt),
      channelId: Number(row.channel_id),
      unit: String(row.unit),
      amount: Number(row.amount),
      reportedAt: Number(row.reported_at),
    }));
  }

  /** Whether any task (of any account, deleted or not) names the public model `model`. */
  hasTaskOfModel(model: string): Promise<boolean> {
    return this.tasks.exists({ where: { model }, withDeleted: true });
  }

  findByTaskId(taskId: string): Promise<TaskEntity | null> {
    return this.tasks.findOne({ where: { taskId } });
  }

  /** The tasks behind rows other modules keep per task (archives, outbox entries), by row id. */
  findByIds(ids: number[]): Promise<TaskEntity[]> {
    return ids.length ? this.tasks.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  /**
   * Inside the caller's transaction: whether the task was deleted by its owner, reading the latest
   * committed row and locking it on MySQL and PostgreSQL, so a concurrent delete either committed before or waits.
   */
  async isDeletedLocked(manager: EntityManager, id: number): Promise<boolean> {
    const rows = await selectForUpdate<{ deleted_at: unknown }>(manager, 'SELECT deleted_at FROM tasks WHERE id = ?', [id]);
    return rows.length === 0 || rows[0].deleted_at !== null;
  }

  /** Inserts a new task and sets its id, in one fixed statement (the submit's hot path). */
  async insertNew(manager: EntityManager, task: TaskEntity): Promise<void> {
    task.id = await insertEntity(manager, TaskEntity, task);
  }

  /** Writes one state change of a task (`task_events`); call it with the manager of the transaction that makes the change. */
  async recordEvent(manager: EntityManager, event: TaskEventInput): Promise<void> {
    const detail = event.detail ? event.detail.slice(0, 255) : null;
    await changedRows(manager, INSERT_EVENT_SQL, [
      event.taskRowId,
      event.kind,
      event.status ?? null,
      event.progress ?? null,
      detail,
      event.at,
    ]);
  }

  findByIdempotencyKey(userId: number, idempotencyKey: string): Promise<TaskEntity | null> {
    return this.reads.findOne(TaskEntity, 'user_id = ? AND idempotency_key = ?', [userId, idempotencyKey]);
  }

  /** Frees a task's Idempotency-Key for a new request (the task stays). */
  async freeIdempotencyKey(id: number): Promise<void> {
    await this.transactions.run((manager) => manager.update(TaskEntity, { id }, { idempotencyKey: null }));
  }

  /**
   * Claims up to `limit` due tasks for `owner` (jobs/lease-claim.ts). A claimed task's `next_poll_at`
   * moves to the end of its lease, so no other instance sees it as due until the lease runs out (a
   * dead instance's tasks come back by themselves).
   */
  async claimDueTasks(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    statuses: TaskStatus[] = POLLABLE_STATUSES,
  ): Promise<TaskEntity[]> {
    const claimed = await claimLease(this.transactions, {
      table: 'tasks',
      claimable: { sql: `status IN (${statuses.map(() => '?').join(', ')}) AND next_poll_at <= ?`, params: [...statuses, now] },
      order: 'next_poll_at',
      limit,
      lease: { sql: 'lease_owner = ?, lease_until = ?, next_poll_at = ?', params: [owner, leaseUntil, leaseUntil] },
    });
    if (claimed.length === 0) return [];
    return this.tasks.find({ where: { leaseOwner: owner, leaseUntil, status: In(statuses) } });
  }

  /**
   * Compare-and-set: applies `changes` only if the task is still in `expectedStatus` (and, when
   * given, still leased by `leaseOwner`). Returns whether this caller won. `polledAt`: the change
   * comes from a poll made then, which the same write counts.
   */
  async compareAndSet(
    manager: EntityManager,
    id: number,
    expectedStatus: TaskStatus,
    changes: Partial<TaskEntity>,
    leaseOwner?: string,
    polledAt?: number,
  ): Promise<boolean> {
    const set = { ...changes, ...(polledAt !== undefined ? pollCounted(polledAt) : {}) } as QueryDeepPartialEntity<TaskEntity>;
    const qb = manager
      .createQueryBuilder()
      .update(TaskEntity)
      .set(set)
      .where('id = :id AND status = :expectedStatus', { id, expectedStatus });
    if (leaseOwner) qb.andWhere('lease_owner = :leaseOwner', { leaseOwner });
    const result = await qb.execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * The provider accepted a SUBMITTING task: it becomes NOT_START with the provider's id and lets go
   * of its lease. A compare-and-set on status and lease owner, as `compareAndSet`, in fixed SQL (the
   * submit's hot path). `request` replaces the stored request, `providerUsage` the provider's reported cost, when given.
   */
  async markSubmitted(manager: EntityManager, id: number, owner: string, accepted: SubmitAccepted): Promise<boolean> {
    const params: unknown[] = [accepted.upstreamTaskId, accepted.submitTime, accepted.nextPollAt, accepted.submitTime];
    if (accepted.request) params.push(jsonColumn.to(accepted.request));
    if (accepted.providerUsage) params.push(jsonColumn.to(accepted.providerUsage));
    params.push(id, owner);
    return (await changedRows(manager, MARK_SUBMITTED_SQL[accepted.request ? 1 : 0][accepted.providerUsage ? 1 : 0], params)) > 0;
  }

  /**
   * A running submit's heartbeat: pushes its lease (and with it the time the sync would take the
   * task over) to `leaseUntil`, only while the task is still in `status` (SUBMITTING, or the status a
   * provider retry keeps) and leased to `owner`.
   * False when the task was taken over or settled in the meantime.
   */
  async extendSubmitLease(id: number, owner: string, leaseUntil: number, status: TaskStatus = 'SUBMITTING'): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ leaseUntil, nextPollAt: leaseUntil })
        .where('id = :id AND status = :status AND lease_owner = :owner', { id, status, owner })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * A cancel takes the task's lease while it asks the provider: a poll in flight (whose writes are
   * guarded by its own lease owner) can no longer end the task, and the sync leaves it alone until
   * `leaseUntil`. Refused while the task moved on from `expectedStatus` or another live cancel holds it.
   */
  async claimForCancel(id: number, expectedStatus: TaskStatus, owner: string, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ leaseOwner: owner, leaseUntil, nextPollAt: leaseUntil })
        .where('id = :id AND status = :expectedStatus', { id, expectedStatus })
        .andWhere('(lease_owner IS NULL OR lease_owner NOT LIKE :cancels OR lease_until < :now)', {
          cancels: `${CANCEL_LEASE_PREFIX}%`,
          now,
        })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  /** Writes down, under the cancel's lease, that the provider is being sent the client's cancel (see TaskEntity.cancelSentAt). */
  async markCancelSent(id: number, owner: string, sentAt: number): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ cancelSentAt: sentAt })
        .where('id = :id AND lease_owner = :owner', { id, owner })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  /** Lets go of a lease and schedules the next look; `polledAt` counts a poll (one that failed) made then. */
  async release(id: number, owner: string, changes: Partial<TaskEntity>, polledAt?: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({
          ...changes,
          ...(polledAt !== undefined ? pollCounted(polledAt) : {}),
          leaseOwner: null,
          leaseUntil: null,
        } as QueryDeepPartialEntity<TaskEntity>)
        .where('id = :id AND lease_owner = :owner', { id, owner })
        .execute(),
    );
  }

  /**
   * Frees many leases at once after polls that changed nothing but progress: one UPDATE with
   * per-row values, guarded by owner and status like a compare-and-set. Rows whose lease was
   * taken over in the meantime are simply not touched. Each row counts its poll; rows whose
   * progress passed a quarter get their timeline event in the same transaction.
   */
  async releaseMany(owner: string, status: TaskStatus, rows: PollRelease[], now: number): Promise<void> {
    if (rows.length === 0) return;
    const params: unknown[] = [];
    const caseOf = (value: (row: PollRelease) => unknown) => caseById(rows, params, value);
    const progress = caseOf((row) => row.progress);
    const nextPollAt = caseOf((row) => row.nextPollAt);
    const response = caseOf((row) => (row.upstreamResponse === null ? null : JSON.stringify(row.upstreamResponse)));
    const sql =
      `UPDATE tasks SET progress = ${progress}, next_poll_at = ${nextPollAt}, upstream_response = ${response}, ` +
      `poll_failures = 0, lease_owner = NULL, lease_until = NULL, ` +
      `poll_count = poll_count + 1, first_poll_at = COALESCE(first_poll_at, ?), last_poll_at = ?, updated_at = ? ` +
      `WHERE id IN (${rows.map(() => '?').join(', ')}) AND lease_owner = ? AND status = ?`;
    params.push(now, now, now, ...rows.map((row) => row.id), owner, status);
    const stepped = rows.filter((row) => row.passedStep);
    if (stepped.length === 0) {
      await this.transactions.runStatement((manager) => manager.query(sql, params));
      return;
    }
    const events = progressEventsSql(stepped, owner, status, now);
    await this.transactions.run(async (manager) => {
      await manager.query(events.sql, events.params);
      await manager.query(sql, params);
    });
  }

  countByStatus(): Promise<Array<{ status: string; count: number }>> {
    return this.tasks
      .createQueryBuilder('t')
      .select('t.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .groupBy('t.status')
      .getRawMany<{ status: string; count: string | number }>()
      .then((rows) => rows.map((row) => ({ status: row.status, count: Number(row.count) })));
  }

  oldestDuePollAt(now: number): Promise<number | null> {
    return this.tasks
      .createQueryBuilder('t')
      .select('MIN(t.next_poll_at)', 'oldest')
      .where('t.status IN (:...statuses)', { statuses: POLLABLE_STATUSES })
      .andWhere('t.next_poll_at <= :now', { now })
      .getRawOne<{ oldest: string | number | null }>()
      .then((row) => (row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest)));
  }

  /** Forgets a finished task for its owner (the row stays for the ledger); false if it was not theirs, not finished or already gone. */
  async markDeleted(userId: number, taskId: string, now: number): Promise<boolean> {
    const result = await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ deletedAt: now, updatedAt: now })
        .where('task_id = :taskId AND user_id = :userId AND deleted_at IS NULL', { taskId, userId })
        .andWhere('status IN (:...finished)', { finished: ['SUCCESS', 'FAILURE'] })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * TASK_RETENTION: claims up to `limit` tasks that ended before `endedBefore` for `owner` until
   * `leaseUntil`, and hides them from their owner at once (`deleted_at`), so nobody sees a task whose
   * video is being removed. A crashed owner's claim runs out and the next claim finishes the job.
   * A task that any of `holds` applies to is passed over (not claimed, still visible), in the same
   * statement, so it neither fills the batch nor is deleted under a hold that began meanwhile.
   */
  async claimEndedBefore(
    owner: string,
    endedBefore: number,
    now: number,
    leaseUntil: number,
    limit: number,
    holds: RetentionHold[] = [],
  ): Promise<TaskEntity[]> {
    const held = holds.map((hold) => ` AND NOT ${hold({ id: 'tasks.id', taskId: 'tasks.task_id' })}`).join('');
    const claimed = await claimLease(this.transactions, {
      table: 'tasks',
      claimable: {
        sql: `status IN (${TERMINAL_STATUSES.map(() => '?').join(', ')}) AND finish_time < ? AND (lease_until IS NULL OR lease_until <= ?)${held}`,
        params: [...TERMINAL_STATUSES, endedBefore, now],
      },
      order: 'finish_time',
      limit,
      lease: {
        sql: 'lease_owner = ?, lease_until = ?, deleted_at = COALESCE(deleted_at, ?)',
        params: [owner, leaseUntil, Math.floor(now)],
      },
    });
    if (claimed.length === 0) return [];
    return this.tasks.find({ where: { leaseOwner: owner, leaseUntil, status: In(TERMINAL_STATUSES) } });
  }

  /**
   * Inside the caller's transaction: deletes a task claimed by `owner` for TASK_RETENTION and its
   * timeline. False (nothing deleted) when the claim was lost meanwhile.
   */
  async deleteClaimed(manager: EntityManager, id: number, owner: string): Promise<boolean> {
    const removed = await manager.delete(TaskEntity, { id, leaseOwner: owner });
    if (!removed.affected) return false;
    await manager.delete(TaskEventEntity, { taskRowId: id });
    await manager.query('DELETE FROM task_provider_usage WHERE task_row_id = ?', [id]);
    return true;
  }

  /** Gives a retention claim back (shutting down): the task is due again at once, still hidden. */
  async releaseRetentionClaim(id: number, owner: string): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager.update(TaskEntity, { id, leaseOwner: owner }, { leaseOwner: null, leaseUntil: null }),
    );
  }

  /**
   * Housekeeping: frees up to `limit` Idempotency-Keys of tasks created before `before` (past the
   * window in which a retry returns the same task). Returns how many were freed.
   */
  async clearIdempotencyKeysBefore(before: number, limit: number): Promise<number> {
    return this.transactions.runStatement(async (manager) => {
      const expired = { idempotencyKey: Not(IsNull()), createdAt: LessThan(before) };
      const picked = await manager.find(TaskEntity, { select: { id: true }, where: expired, order: { id: 'ASC' }, take: limit });
      if (picked.length === 0) return 0;
      const result = await manager.update(TaskEntity, { ...expired, id: In(picked.map((task) => task.id)) }, { idempotencyKey: null });
      return result.affected ?? picked.length;
    });
  }

  /** Keeps a fresh download URL of a finished task (the providers' URLs expire). */
  async replaceResultUrl(id: number, resultUrl: string, now: number): Promise<void> {
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ resultUrl, updatedAt: now })
        .where('id = :id AND status = :status', { id, status: 'SUCCESS' })
        .execute(),
    );
  }

  // The reads TaskQueries offers the other modules.

  /** A task's recorded state changes, oldest first. */
  eventsOf(id: number): Promise<TaskEventEntity[]> {
    return this.tasks.manager.find(TaskEventEntity, { where: { taskRowId: id }, order: { id: 'ASC' } });
  }

  /** A client's own task unless its owner deleted it (the poll's hot path: one fixed statement). */
  findOwnedNotDeleted(userId: number, taskId: string): Promise<TaskEntity | null> {
    return this.reads.findOne(TaskEntity, 'task_id = ? AND user_id = ? AND deleted_at IS NULL', [taskId, userId]);
  }

  /** One page of tasks matching the filter and the search, in the asked order (newest first by default), and how many match. */
  async page(query: TaskListQuery): Promise<{ data: TaskEntity[]; total: number }> {
    const qb = this.tasks.createQueryBuilder('t');
    if (query.userId !== undefined) qb.andWhere('t.user_id = :userId', { userId: query.userId });
    if (query.status?.length) qb.andWhere('t.status IN (:...status)', { status: query.status });
    if (query.model) qb.andWhere('t.model = :model', { model: query.model });
    if (query.excludeDeleted) qb.andWhere('t.deleted_at IS NULL');
    if (query.q) {
      // '!' escapes LIKE's wildcards the same way on MySQL and SQLite (a backslash literal differs between them).
      const literal = query.q.replace(/[!%_]/g, (char) => `!${char}`);
      qb.andWhere(`(t.task_id = :q OR t.task_id LIKE :prefix ESCAPE '!' OR LOWER(t.prompt) LIKE :contains ESCAPE '!')`, {
        q: query.q,
        prefix: `${literal}%`,
        contains: `%${literal.toLowerCase()}%`,
      });
    }
    const [column, direction] = TASK_SORTS[query.sort ?? '-created_at'];
    qb.orderBy(column, direction);
    if (column !== 't.id') qb.addOrderBy('t.id', direction === 'ASC' && column === 't.created_at' ? 'ASC' : 'DESC');
    const [data, total] = await qb
      .skip((query.page - 1) * query.pageSize)
      .take(query.pageSize)
      .getManyAndCount();
    return { data, total };
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

  /** One page of a client's visible tasks (not deleted, not REJECTED or SUBMITTING) in id order; `afterId` is exclusive. */
  listVisiblePage(userId: number, options: { afterId?: number; limit: number; order: 'asc' | 'desc' }): Promise<TaskEntity[]> {
    const qb = this.tasks
      .createQueryBuilder('t')
      .where('t.user_id = :userId', { userId })
      .andWhere('t.deleted_at IS NULL')
      .andWhere('t.status NOT IN (:...hidden)', { hidden: ['REJECTED', 'SUBMITTING'] });
    if (options.afterId !== undefined)
      qb.andWhere(options.order === 'desc' ? 't.id < :afterId' : 't.id > :afterId', { afterId: options.afterId });
    return qb
      .orderBy('t.id', options.order === 'desc' ? 'DESC' : 'ASC')
      .take(options.limit)
      .getMany();
  }

  /** The models a user has ever submitted, sorted. */
  async modelsUsedBy(userId: number): Promise<string[]> {
    const rows = await this.tasks
      .createQueryBuilder('t')
      .select('DISTINCT t.model', 'model')
      .where('t.user_id = :userId', { userId })
      .getRawMany<{ model: string }>();
    return rows.map((row) => row.model).sort();
  }

  /** Task id -> failure reason, for those of `taskIds` the user owns. */
  async failReasonsOf(userId: number, taskIds: string[]): Promise<Map<string, string | null>> {
    if (taskIds.length === 0) return new Map();
    const tasks = await this.tasks.find({ select: { taskId: true, failReason: true }, where: { taskId: In(taskIds), userId } });
    return new Map(tasks.map((task) => [task.taskId, task.failReason]));
  }
}

/**
 * The progress events of a batch of quiet polls, as one INSERT ... SELECT guarded like the batch's
 * UPDATE (same lease owner and status), so only rows the UPDATE will write get an event. Run it in
 * the UPDATE's transaction, before it (the UPDATE frees the lease the guard checks).
 */
function progressEventsSql(
  rows: ReadonlyArray<{ id: number; progress: number }>,
  owner: string,
  status: string,
  at: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const whens = rows.map((row) => {
    params.push(row.id, row.progress);
    return 'WHEN ? THEN ?';
  });
  params.push(at, ...rows.map((row) => row.id), owner, status);
  const sql =
    `INSERT INTO task_events (task_row_id, kind, status, progress, detail, at) ` +
    `SELECT id, 'progress', status, CASE id ${whens.join(' ')} END, NULL, ? FROM tasks ` +
    `WHERE id IN (${rows.map(() => '?').join(', ')}) AND lease_owner = ? AND status = ?`;
  return { sql, params };
}
