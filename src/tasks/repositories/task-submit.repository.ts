import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { jsonColumn } from '../../database/column-transformers';
import { changedRows, insertEntity } from '../../database/lean-writes';
import { LeanReads } from '../../database/lean-reads';
import { TransactionRunner } from '../../database/transaction-runner';
import type { ProviderUsage } from '../../upstream/upstream-adapter';
import { TaskEntity } from '../task.entity';
import type { TaskStatus } from '../task-status';

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

/** The submit's writes: its Idempotency-Key, the new task, the lease it holds while it asks the provider, the provider's acceptance. */
@Injectable()
export class TaskSubmitRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly reads: LeanReads,
  ) {}

  findByIdempotencyKey(userId: number, idempotencyKey: string): Promise<TaskEntity | null> {
    return this.reads.findOne(TaskEntity, 'user_id = ? AND idempotency_key = ?', [userId, idempotencyKey]);
  }

  /** Frees a task's Idempotency-Key for a new request (the task stays). */
  async freeIdempotencyKey(id: number): Promise<void> {
    await this.transactions.run((manager) => manager.update(TaskEntity, { id }, { idempotencyKey: null }));
  }

  /** Inserts a new task and sets its id, in one fixed statement (the submit's hot path). */
  async insertNew(manager: EntityManager, task: TaskEntity): Promise<void> {
    task.id = await insertEntity(manager, TaskEntity, task);
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
}
