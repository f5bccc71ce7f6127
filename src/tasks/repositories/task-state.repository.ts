import { Injectable } from '@nestjs/common';
import type { EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { changedRows } from '../../database/lean-writes';
import { selectForUpdate } from '../../database/row-locks';
import { TransactionRunner } from '../../database/transaction-runner';
import type { AttemptUsage } from '../attempt-usage';
import { TaskEntity } from '../task.entity';
import type { TaskEventInput } from '../task-events';
import type { TaskStatus } from '../task-status';
import { pollCounted } from './task-sql';

const INSERT_EVENT_SQL = 'INSERT INTO task_events (task_row_id, kind, status, progress, detail, at) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_USAGE =
  'INSERT INTO task_provider_usage (task_row_id, attempt, channel_id, unit, amount, reported_at) VALUES (?, ?, ?, ?, ?, ?)';
const USAGE_REPLACED = ['unit', 'amount', 'reported_at'];
/** An attempt's later report replaces its earlier one (the providers report a running total); per dialect, each written once. */
const RECORD_USAGE_SQL = {
  mysql: `${INSERT_USAGE} ON DUPLICATE KEY UPDATE ${USAGE_REPLACED.map((name) => `${name} = VALUES(${name})`).join(', ')}`,
  other: `${INSERT_USAGE} ON CONFLICT(task_row_id, attempt, channel_id) DO UPDATE SET ${USAGE_REPLACED.map((name) => `${name} = excluded.${name}`).join(', ')}`,
};

/** A task's state changes: the compare-and-set on its status, its timeline, its provider's reported cost, and its owner's delete. */
@Injectable()
export class TaskStateRepository {
  constructor(private readonly transactions: TransactionRunner) {}

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
   * Records a finished task's settlement, once: only a SUCCESS task not settled yet takes it (the
   * caller's transaction then writes the refund). False when it was settled already, or is no longer SUCCESS.
   */
  async markSettled(manager: EntityManager, id: number, settled: Partial<TaskEntity> & { settledAt: number }): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(TaskEntity)
      .set(settled as QueryDeepPartialEntity<TaskEntity>)
      .where("id = :id AND status = 'SUCCESS' AND settled_at IS NULL", { id })
      .execute();
    return (result.affected ?? 0) > 0;
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

  /**
   * Inside the caller's transaction (the one that writes the task's change from the same answer):
   * keeps a provider's report against the attempt and channel that made it, replacing that attempt's earlier report.
   */
  async recordProviderUsage(manager: EntityManager, report: AttemptUsage): Promise<void> {
    const sql = ['mysql', 'mariadb'].includes(manager.connection.options.type) ? RECORD_USAGE_SQL.mysql : RECORD_USAGE_SQL.other;
    const { taskRowId, attempt, channelId, usage, at } = report;
    await manager.query(sql, [taskRowId, attempt, channelId, usage.unit, usage.amount, at]);
  }

  /**
   * Inside the caller's transaction: whether the task was deleted by its owner, reading the latest
   * committed row and locking it on MySQL and PostgreSQL, so a concurrent delete either committed before or waits.
   */
  async isDeletedLocked(manager: EntityManager, id: number): Promise<boolean> {
    const rows = await selectForUpdate<{ deleted_at: unknown }>(manager, 'SELECT deleted_at FROM tasks WHERE id = ?', [id]);
    return rows.length === 0 || rows[0].deleted_at !== null;
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
}
