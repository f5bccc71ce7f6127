import type { FindOptionsWhere, Repository } from 'typeorm';
import type { TransactionRunner } from '../database/transaction-runner';
import { TaskEntity } from './task.entity';

/**
 * A lease some background work keeps on the task row: a column saying when the task is due (and,
 * once claimed, until when the lease holds) and a column naming the holder, e.g. the archive's
 * (`archive_due_at`, `archive_owner`) or the end outbox's (`end_event_due_at`, `end_event_owner`).
 */
export interface TaskRowLease {
  due: { column: string; property: 'archiveDueAt' | 'endEventDueAt' };
  owner: { property: 'archiveOwner' | 'endEventOwner' };
  /** Which rows may be claimed at all besides being due: as SQL, and as the same condition for find. */
  only?: { sql: string; where: FindOptionsWhere<TaskEntity> };
}

/**
 * Claims up to `limit` due tasks for `owner`: their due time moves to `leaseUntil`, so no other
 * instance takes them until the lease runs out (a crashed owner's come back by themselves). MySQL
 * locks the candidate rows with SKIP LOCKED so concurrent instances take different tasks; SQLite
 * serializes writers anyway. The conditional UPDATE is what makes a claim exclusive on both.
 */
export async function claimDueTaskRows(
  transactions: TransactionRunner,
  tasks: Repository<TaskEntity>,
  lease: TaskRowLease,
  claim: { owner: string; now: number; leaseUntil: number; limit: number },
): Promise<TaskEntity[]> {
  const due = lease.due.column;
  const only = lease.only ? ` AND ${lease.only.sql}` : '';
  // MySQL needs the transaction for the row locks; SQLite's writer lock already makes both statements one step.
  const unitOfWork = transactions.isSqlite ? transactions.runStatement.bind(transactions) : transactions.run.bind(transactions);
  const claimed = await unitOfWork(async (manager) => {
    const lock = transactions.isSqlite ? '' : ' FOR UPDATE SKIP LOCKED';
    const rows: Array<{ id: number | string }> = await manager.query(
      `SELECT id FROM tasks WHERE ${due} <= ?${only} ORDER BY ${due} LIMIT ${Math.floor(claim.limit)}${lock}`,
      [claim.now],
    );
    if (rows.length === 0) return 0;
    const result = await manager
      .createQueryBuilder()
      .update(TaskEntity)
      .set({ [lease.owner.property]: claim.owner, [lease.due.property]: claim.leaseUntil })
      .where('id IN (:...ids)', { ids: rows.map((row) => Number(row.id)) })
      .andWhere(`${due} <= :now${only}`, { now: claim.now })
      .execute();
    return result.affected ?? 0;
  });
  if (claimed === 0) return [];
  return tasks.find({ where: { [lease.owner.property]: claim.owner, [lease.due.property]: claim.leaseUntil, ...lease.only?.where } });
}
