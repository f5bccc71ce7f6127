import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { Clock } from '../common/runtime/clock';
import { changedRows } from '../database/lean-writes';
import { TransactionRunner } from '../database/transaction-runner';
import { claimLease } from '../jobs/lease-claim';
import { TaskEndHooks } from '../tasks/task-end-hooks';
import { TaskReadRepository } from '../tasks/repositories/task-read.repository';
import { TaskStateRepository } from '../tasks/repositories/task-state.repository';
import { OutputExpiry } from './output-expiry';
import { type ArchiveSummary, toArchiveSummary, VideoArchiveEntity } from './video-archive.entity';

const INSERT_DUE_SQL = "INSERT INTO video_archives (task_row_id, status, due_at, failures, expires_at) VALUES (?, 'pending', ?, 0, ?)";

/** What the store holds, for /metrics and the admin console. */
export interface StoredTotals {
  bytes: number;
  objects: number;
  pending: number;
  failed: number;
}

/**
 * The archive state of each finished task (`video_archives`, which only StorageModule reads and
 * writes), behind intention-revealing methods. Claims are leases in the database (a conditional
 * UPDATE, with SKIP LOCKED on MySQL), so any instance may archive any task.
 */
@Injectable()
export class VideoArchiveRepository {
  constructor(
    @InjectRepository(VideoArchiveEntity) private readonly archives: Repository<VideoArchiveEntity>,
    private readonly tasks: TaskReadRepository,
    private readonly states: TaskStateRepository,
    private readonly transactions: TransactionRunner,
    private readonly outputs: OutputExpiry,
    private readonly clock: Clock,
    ends: TaskEndHooks,
  ) {
    // Due for the archiving job in the transaction that finishes the task, with when its provider's link dies.
    ends.recordWithEnd((manager, end) =>
      end.status === 'SUCCESS' && end.step !== 'settled'
        ? this.recordDue(manager, end.task.id, end.at, this.outputs.expiresAt(end.task.platform, end.task.finishTime ?? end.at))
        : Promise.resolve(),
    );
  }

  /** Inside the caller's transaction: the task's video is due to be archived from `now`; `expiresAt`: when its provider's link dies. */
  async recordDue(manager: EntityManager, taskRowId: number, now: number, expiresAt: number | null = null): Promise<void> {
    await changedRows(manager, INSERT_DUE_SQL, [taskRowId, now, expiresAt]);
  }

  /**
   * Claims up to `limit` archives due, short-lived outputs first (soonest to expire first), then the
   * rest (longest due first): their due time moves to the lease's end, so no other instance takes
   * them until it runs out (a crashed instance's come back by themselves). Returned in that order.
   */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<VideoArchiveEntity[]> {
    const lease = { sql: 'lease_owner = ?, due_at = ?', params: [owner, leaseUntil] };
    const expiring = await claimLease(this.transactions, {
      table: 'video_archives',
      key: 'task_row_id',
      claimable: { sql: "status = 'pending' AND expires_at IS NOT NULL AND due_at <= ?", params: [now] },
      order: 'expires_at',
      limit,
      lease,
    });
    const others =
      expiring.length < limit
        ? await claimLease(this.transactions, {
            table: 'video_archives',
            key: 'task_row_id',
            claimable: { sql: "due_at <= ? AND status = 'pending'", params: [now] },
            order: 'due_at',
            limit: limit - expiring.length,
            lease,
          })
        : [];
    if (expiring.length === 0 && others.length === 0) return [];
    const claimed = await this.archives.find({ where: { leaseOwner: owner, dueAt: leaseUntil, status: 'pending' } });
    const first = (archive: VideoArchiveEntity) => archive.expiresAt ?? Number.MAX_SAFE_INTEGER;
    return claimed.sort((a, b) => first(a) - first(b));
  }

  findOf(taskRowId: number): Promise<VideoArchiveEntity | null> {
    return this.archives.findOne({ where: { taskRowId } });
  }

  async summaryOf(taskRowId: number): Promise<ArchiveSummary> {
    return toArchiveSummary(await this.findOf(taskRowId), this.clock.now());
  }

  /** The archives of a page of tasks, by task row id (a task without one has none in the map). */
  async summariesOf(taskRowIds: number[]): Promise<Map<number, ArchiveSummary>> {
    const rows = taskRowIds.length ? await this.archives.find({ where: { taskRowId: In(taskRowIds) } }) : [];
    const now = this.clock.now();
    return new Map(rows.map((row) => [row.taskRowId, toArchiveSummary(row, now)]));
  }

  /** Keeps a long upload's claim alive; false when the archive was taken over or settled meanwhile. */
  extendLease(taskRowId: number, owner: string, leaseUntil: number): Promise<boolean> {
    return this.updateOwned(taskRowId, owner, { dueAt: leaseUntil });
  }

  /** The copy is complete: recorded only while still claimed by `owner` and the task not deleted by its owner. */
  markArchived(taskRowId: number, owner: string, result: { size: number; thumbnailSize: number | null; now: number }): Promise<boolean> {
    return this.updateOwned(
      taskRowId,
      owner,
      {
        status: 'archived',
        size: result.size,
        thumbnailSize: result.thumbnailSize,
        archivedAt: result.now,
        dueAt: null,
        leaseOwner: null,
        error: null,
      },
      true,
      { detail: 'archived', at: result.now },
    );
  }

  /** A failed try: due again at `dueAt`. */
  retryLater(taskRowId: number, owner: string, failures: number, dueAt: number, error: string | null): Promise<boolean> {
    return this.updateOwned(taskRowId, owner, {
      failures,
      dueAt,
      leaseOwner: null,
      ...(error !== null ? { error: error.slice(0, 255) } : {}),
    });
  }

  /** No more tries (the provider no longer has the video); an admin may ask again. */
  markFailed(taskRowId: number, owner: string, error: string, now: number): Promise<boolean> {
    return this.updateOwned(taskRowId, owner, { status: 'failed', error: error.slice(0, 255), dueAt: null, leaseOwner: null }, false, {
      detail: 'failed',
      at: now,
    });
  }

  /** Makes a finished, not deleted task's archive due now (again); false when there is no such task or it is archived already. */
  async requeue(taskId: string, now: number): Promise<boolean> {
    const task = await this.tasks.findByTaskId(taskId);
    if (!task || task.status !== 'SUCCESS' || task.deletedAt !== null) return false;
    return this.transactions.run(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(VideoArchiveEntity)
        .set({ status: 'pending', dueAt: now, leaseOwner: null, failures: 0, error: null })
        .where("task_row_id = :id AND (status IS NULL OR status <> 'archived')", { id: task.id })
        .execute();
      if ((result.affected ?? 0) > 0) return true;
      // A task that finished before archiving existed has no archive yet.
      if (await manager.findOne(VideoArchiveEntity, { where: { taskRowId: task.id } })) return false;
      await this.recordDue(manager, task.id, now, this.outputs.expiresAt(task.platform, task.finishTime ?? now));
      return true;
    });
  }

  /** Inside the caller's transaction (a task deleted by TASK_RETENTION): its archive record. */
  async deleteForTask(manager: EntityManager, taskRowId: number): Promise<number> {
    return (await manager.delete(VideoArchiveEntity, { taskRowId })).affected ?? 0;
  }

  /** A deleted task's copy is gone: nothing left to count or archive. */
  async forget(taskRowId: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(VideoArchiveEntity)
        .set({ status: null, dueAt: null, leaseOwner: null, size: null, thumbnailSize: null })
        .where('task_row_id = :taskRowId', { taskRowId })
        .execute(),
    );
  }

  async totals(): Promise<StoredTotals> {
    const row = await this.archives
      .createQueryBuilder('a')
      .select("SUM(CASE WHEN a.status = 'archived' THEN a.size + COALESCE(a.thumbnail_size, 0) ELSE 0 END)", 'bytes')
      .addSelect(
        "SUM(CASE WHEN a.status = 'archived' THEN 1 + (CASE WHEN a.thumbnail_size IS NULL THEN 0 ELSE 1 END) ELSE 0 END)",
        'objects',
      )
      .addSelect("SUM(CASE WHEN a.status = 'pending' THEN 1 ELSE 0 END)", 'pending')
      .addSelect("SUM(CASE WHEN a.status = 'failed' THEN 1 ELSE 0 END)", 'failed')
      .where('a.status IS NOT NULL')
      .getRawOne<Record<string, string | number | null>>();
    const num = (value: string | number | null | undefined) => Number(value ?? 0);
    return { bytes: num(row?.bytes), objects: num(row?.objects), pending: num(row?.pending), failed: num(row?.failed) };
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.archives
      .createQueryBuilder('a')
      .select('MIN(a.due_at)', 'oldest')
      .where("a.status = 'pending' AND a.due_at <= :now", { now })
      .getRawOne<{ oldest: string | number | null }>()
      .then((row) => (row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest)));
  }

  /** `event`: the archive's outcome for the task's timeline, written in the same transaction when the update wins. */
  private async updateOwned(
    taskRowId: number,
    owner: string,
    changes: Partial<VideoArchiveEntity>,
    notDeleted = false,
    event?: { detail: string; at: number },
  ): Promise<boolean> {
    const update = async (manager: EntityManager) => {
      if (notDeleted && (await this.states.isDeletedLocked(manager, taskRowId))) return false;
      const result = await manager
        .createQueryBuilder()
        .update(VideoArchiveEntity)
        .set(changes)
        .where("task_row_id = :taskRowId AND lease_owner = :owner AND status = 'pending'", { taskRowId, owner })
        .execute();
      const won = (result.affected ?? 0) > 0;
      if (won && event) await this.states.recordEvent(manager, { taskRowId, kind: 'archived', detail: event.detail, at: event.at });
      return won;
    };
    return event || notDeleted ? this.transactions.run(update) : this.transactions.runStatement(update);
  }
}
