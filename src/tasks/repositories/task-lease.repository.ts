import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type QueryDeepPartialEntity } from 'typeorm';
import { caseById } from '../../database/case-by-id';
import { TransactionRunner } from '../../database/transaction-runner';
import { claimLease } from '../../jobs/lease-claim';
import { TaskEntity } from '../task.entity';
import { POLLABLE_STATUSES, TaskStatus } from '../task-status';
import { pollCounted } from './task-sql';

/** What a poll that changed nothing but progress writes back. */
export interface PollRelease {
  id: number;
  progress: number;
  nextPollAt: number | null;
  upstreamResponse: unknown;
  /** The poll took progress past a quarter: the timeline records it (see passesProgressStep). */
  passedStep?: boolean;
}

/** The lease owners of cancels start with this (see claimForCancel). */
export const CANCEL_LEASE_PREFIX = 'cancel:';

/** The leases of the sync and of a cancel: due tasks claimed, a cancel's claim, and the lease let go with the poll's result. */
@Injectable()
export class TaskLeaseRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Claims up to `limit` due tasks for `owner` (jobs/lease-claim.ts). A claimed task's `next_poll_at`
   * moves to the end of its lease, so no other instance sees it as due until the lease runs out (a
   * dead instance's tasks come back by themselves). `dueAt`, when given, gets each picked task's due
   * time from before the claim moved it (what the poll lag is measured against).
   */
  async claimDueTasks(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    statuses: TaskStatus[] = POLLABLE_STATUSES,
    dueAt?: Map<number, number>,
  ): Promise<TaskEntity[]> {
    const claimed = await claimLease(this.transactions, {
      table: 'tasks',
      claimable: { sql: `status IN (${statuses.map(() => '?').join(', ')}) AND next_poll_at <= ?`, params: [...statuses, now] },
      order: 'next_poll_at',
      limit,
      columns: ['next_poll_at'],
      choose: (candidates) =>
        candidates.map((row) => {
          dueAt?.set(Number(row.id), Number(row.next_poll_at));
          return Number(row.id);
        }),
      lease: { sql: 'lease_owner = ?, lease_until = ?, next_poll_at = ?', params: [owner, leaseUntil, leaseUntil] },
    });
    if (claimed.length === 0) return [];
    return this.tasks.find({ where: { leaseOwner: owner, leaseUntil, status: In(statuses) } });
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
