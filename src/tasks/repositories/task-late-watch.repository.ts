import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type QueryDeepPartialEntity } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { claimLease } from '../../jobs/lease-claim';
import { FAILURE } from '../../upstream/failure-reason';
import { TaskEntity } from '../task.entity';
import type { LateCompletion } from '../task-usage';
import { pollCounted } from './task-sql';

const WATCHED = 'FAILURE';

/**
 * The late watch's rows (LateCompletionWatch): a task failed `upstream timeout` with a `next_poll_at`
 * is one whose provider is still read to learn its end. Claimed with a lease like every job's rows
 * (never one TASK_RETENTION holds); each write is guarded by the claim's owner and frees the lease.
 */
@Injectable()
export class TaskLateWatchRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Claims up to `limit` watched tasks due by `now`; each is due again at `leaseUntil` unless written before. */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<TaskEntity[]> {
    const claimed = await claimLease(this.transactions, {
      table: 'tasks',
      claimable: {
        sql: 'status = ? AND fail_reason = ? AND next_poll_at <= ? AND (lease_until IS NULL OR lease_until <= ?)',
        params: [WATCHED, FAILURE.timeout, now, now],
      },
      order: 'next_poll_at',
      limit,
      lease: { sql: 'lease_owner = ?, lease_until = ?, next_poll_at = ?', params: [owner, leaseUntil, leaseUntil] },
    });
    if (claimed.length === 0) return [];
    return this.tasks.find({ where: { leaseOwner: owner, leaseUntil, status: WATCHED } });
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.tasks
      .createQueryBuilder('t')
      .select('MIN(t.next_poll_at)', 'oldest')
      .where('t.status = :status AND t.fail_reason = :reason', { status: WATCHED, reason: FAILURE.timeout })
      .andWhere('t.next_poll_at <= :now', { now })
      .getRawOne<{ oldest: string | number | null }>()
      .then((row) => (row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest)));
  }

  /** Read again at `at` (`polledAt`: a read was made). */
  readAgainAt(task: TaskEntity, at: number, polledAt?: number): Promise<boolean> {
    return this.write(task, { nextPollAt: at }, polledAt);
  }

  /** Read no more: the watch is over without an end learnt. */
  stop(task: TaskEntity, polledAt?: number): Promise<boolean> {
    return this.write(task, { nextPollAt: null }, polledAt);
  }

  /** The end the provider reported (its cost counted in the operator's margin), and read no more; false when the claim was lost meanwhile. */
  record(task: TaskEntity, late: LateCompletion, polledAt: number): Promise<boolean> {
    const costMicroUsd = late.providerCostUsd == null ? null : Math.round(late.providerCostUsd * 1e6);
    return this.write(task, { lateCompletion: late, providerCostMicroUsd: costMicroUsd, nextPollAt: null }, polledAt);
  }

  private async write(task: TaskEntity, changes: Partial<TaskEntity>, polledAt?: number): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({
          ...changes,
          ...(polledAt !== undefined ? pollCounted(polledAt) : {}),
          leaseOwner: null,
          leaseUntil: null,
        } as QueryDeepPartialEntity<TaskEntity>)
        .where('id = :id AND lease_owner = :owner AND status = :status', { id: task.id, owner: task.leaseOwner, status: WATCHED })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }
}
