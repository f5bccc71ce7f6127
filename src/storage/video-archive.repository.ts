import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, type QueryDeepPartialEntity } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { TaskEntity } from '../tasks/task.entity';
import { recordTaskEvent } from '../tasks/task-events';
import { claimDueTaskRows, type TaskRowLease } from '../tasks/task-row-lease';

/** An archive's claim on a task waiting to be archived. */
const ARCHIVE_LEASE: TaskRowLease = {
  due: { column: 'archive_due_at', property: 'archiveDueAt' },
  owner: { property: 'archiveOwner' },
  only: { sql: "archive_status = 'pending'", where: { archiveStatus: 'pending' } },
};

/** What the store holds, for /metrics and the admin console. */
export interface StoredTotals {
  bytes: number;
  objects: number;
  pending: number;
  failed: number;
}

/**
 * The archive state kept on each task, behind intention-revealing methods. Claims are leases in the
 * database (a conditional UPDATE, with SKIP LOCKED on MySQL), so any instance may archive any task.
 */
@Injectable()
export class VideoArchiveRepository {
  constructor(
    @InjectRepository(TaskEntity) private readonly tasks: Repository<TaskEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Claims up to `limit` tasks due for archiving: their due time moves to the lease's end, so no
   * other instance takes them until it runs out (a crashed instance's tasks come back by themselves).
   */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<TaskEntity[]> {
    return claimDueTaskRows(this.transactions, this.tasks, ARCHIVE_LEASE, { owner, now, leaseUntil, limit });
  }


  findById(id: number): Promise<TaskEntity | null> {
    return this.tasks.findOne({ where: { id } });
  }

  /** Keeps a long upload's claim alive; false when the task was taken over or settled meanwhile. */
  extendLease(id: number, owner: string, leaseUntil: number): Promise<boolean> {
    return this.updateOwned(id, owner, { archiveDueAt: leaseUntil });
  }

  /** The copy is complete: recorded only while still claimed by `owner` and not deleted by its owner. */
  markArchived(id: number, owner: string, result: { size: number; thumbnailSize: number | null; now: number }): Promise<boolean> {
    return this.updateOwned(
      id,
      owner,
      { archiveStatus: 'archived', archiveSize: result.size, thumbnailSize: result.thumbnailSize, archivedAt: result.now, archiveDueAt: null, archiveOwner: null, archiveError: null },
      true,
      { detail: 'archived', at: result.now },
    );
  }

  /** A failed try: due again at `dueAt`. */
  retryLater(id: number, owner: string, failures: number, dueAt: number, error: string | null): Promise<boolean> {
    return this.updateOwned(id, owner, { archiveFailures: failures, archiveDueAt: dueAt, archiveOwner: null, ...(error !== null ? { archiveError: error.slice(0, 255) } : {}) });
  }

  /** No more tries (the provider no longer has the video); an admin may ask again. */
  markFailed(id: number, owner: string, error: string, now: number): Promise<boolean> {
    return this.updateOwned(id, owner, { archiveStatus: 'failed', archiveError: error.slice(0, 255), archiveDueAt: null, archiveOwner: null }, false, { detail: 'failed', at: now });
  }

  /** Makes a finished, not deleted task's archive due now (again); false when there is no such task or it is archived already. */
  async requeue(taskId: string, now: number): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ archiveStatus: 'pending', archiveDueAt: now, archiveOwner: null, archiveFailures: 0, archiveError: null })
        .where("task_id = :taskId AND status = 'SUCCESS' AND deleted_at IS NULL", { taskId })
        .andWhere("(archive_status IS NULL OR archive_status <> 'archived')")
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  /** A deleted task's copy is gone: nothing left to count or archive. */
  async forget(id: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set({ archiveStatus: null, archiveDueAt: null, archiveOwner: null, archiveSize: null, thumbnailSize: null })
        .where('id = :id', { id })
        .execute(),
    );
  }

  async totals(): Promise<StoredTotals> {
    const row = await this.tasks
      .createQueryBuilder('t')
      .select("SUM(CASE WHEN t.archive_status = 'archived' THEN t.archive_size + COALESCE(t.thumbnail_size, 0) ELSE 0 END)", 'bytes')
      .addSelect("SUM(CASE WHEN t.archive_status = 'archived' THEN 1 + (CASE WHEN t.thumbnail_size IS NULL THEN 0 ELSE 1 END) ELSE 0 END)", 'objects')
      .addSelect("SUM(CASE WHEN t.archive_status = 'pending' THEN 1 ELSE 0 END)", 'pending')
      .addSelect("SUM(CASE WHEN t.archive_status = 'failed' THEN 1 ELSE 0 END)", 'failed')
      .where('t.archive_status IS NOT NULL')
      .getRawOne<Record<string, string | number | null>>();
    const num = (value: string | number | null | undefined) => Number(value ?? 0);
    return { bytes: num(row?.bytes), objects: num(row?.objects), pending: num(row?.pending), failed: num(row?.failed) };
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.tasks
      .createQueryBuilder('t')
      .select('MIN(t.archive_due_at)', 'oldest')
      .where("t.archive_status = 'pending' AND t.archive_due_at <= :now", { now })
      .getRawOne<{ oldest: string | number | null }>()
      .then((row) => (row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest)));
  }

  /** `event`: the archive's outcome for the task's timeline, written in the same transaction when the update wins. */
  private async updateOwned(id: number, owner: string, changes: Partial<TaskEntity>, notDeleted = false, event?: { detail: string; at: number }): Promise<boolean> {
    const update = async (manager: EntityManager) => {
      const qb = manager
        .createQueryBuilder()
        .update(TaskEntity)
        .set(changes as QueryDeepPartialEntity<TaskEntity>)
        .where("id = :id AND archive_owner = :owner AND archive_status = 'pending'", { id, owner });
      if (notDeleted) qb.andWhere('deleted_at IS NULL');
      const won = ((await qb.execute()).affected ?? 0) > 0;
      if (won && event) await recordTaskEvent(manager, { taskRowId: id, kind: 'archived', detail: event.detail, at: event.at });
      return won;
    };
    return event ? this.transactions.run(update) : this.transactions.runStatement(update);
  }
}
