import type { FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';
import type { TransactionRunner } from '../database/transaction-runner';

/**
 * A lease some background work keeps on the rows of its own table: a column saying when the row is
 * due (and, once claimed, until when the lease holds) and a column naming the holder, e.g. the video
 * archive's (`video_archives.due_at`, `lease_owner`) or the webhook outbox's.
 */
export interface DueRowLease<Row extends ObjectLiteral> {
  /** The row's key column (a task row id) and its property. */
  key: { column: string; property: keyof Row & string };
  due: { column: string; property: keyof Row & string };
  owner: { property: keyof Row & string };
  /** Which rows may be claimed at all besides being due: as SQL, and as the same condition for find. */
  only?: { sql: string; where: FindOptionsWhere<Row> };
}

/**
 * Claims up to `limit` due rows for `owner`: their due time moves to `leaseUntil`, so no other
 * instance takes them until the lease runs out (a crashed owner's come back by themselves). MySQL
 * locks the candidate rows with SKIP LOCKED so concurrent instances take different rows; SQLite
 * serializes writers anyway. The conditional UPDATE is what makes a claim exclusive on both.
 */
export async function claimDueRows<Row extends ObjectLiteral>(
  transactions: TransactionRunner,
  rows: Repository<Row>,
  lease: DueRowLease<Row>,
  claim: { owner: string; now: number; leaseUntil: number; limit: number },
): Promise<Row[]> {
  const table = rows.metadata.tableName;
  const { key, due } = lease;
  const only = lease.only ? ` AND ${lease.only.sql}` : '';
  // MySQL needs the transaction for the row locks; SQLite's writer lock already makes both statements one step.
  const unitOfWork = transactions.isSqlite ? transactions.runStatement.bind(transactions) : transactions.run.bind(transactions);
  const claimed = await unitOfWork(async (manager) => {
    const lock = transactions.isSqlite ? '' : ' FOR UPDATE SKIP LOCKED';
    const candidates: Array<Record<string, number | string>> = await manager.query(
      `SELECT ${key.column} AS id FROM ${table} WHERE ${due.column} <= ?${only} ORDER BY ${due.column} LIMIT ${Math.floor(claim.limit)}${lock}`,
      [claim.now],
    );
    if (candidates.length === 0) return 0;
    const result = await manager
      .createQueryBuilder()
      .update(rows.target)
      .set({ [lease.owner.property]: claim.owner, [due.property]: claim.leaseUntil } as never)
      .where(`${key.column} IN (:...ids)`, { ids: candidates.map((row) => Number(row.id)) })
      .andWhere(`${due.column} <= :now${only}`, { now: claim.now })
      .execute();
    return result.affected ?? 0;
  });
  if (claimed === 0) return [];
  return rows.find({
    where: { [lease.owner.property]: claim.owner, [due.property]: claim.leaseUntil, ...lease.only?.where } as FindOptionsWhere<Row>,
  });
}
