import { In, type EntityTarget, type FindOptionsWhere, type ObjectLiteral } from 'typeorm';
import type { TransactionRunner } from './transaction-runner';

/**
 * Deletes at most `limit` rows matching `expired` (oldest ids first) and returns how many went: the
 * ids are picked with a LIMIT, then deleted by id and the same condition (a row changed meanwhile
 * stays), so each statement is short and portable (no DELETE ... LIMIT, which PostgreSQL lacks).
 */
export async function deleteExpiredBatch<Row extends ObjectLiteral & { id: number }>(
  transactions: TransactionRunner,
  target: EntityTarget<Row>,
  expired: FindOptionsWhere<Row>,
  limit: number,
): Promise<number> {
  return transactions.runStatement(async (manager) => {
    const picked = await manager.find(target, {
      select: { id: true } as never,
      where: expired,
      order: { id: 'ASC' } as never,
      take: limit,
    });
    if (picked.length === 0) return 0;
    const result = await manager.delete(target, { ...expired, id: In(picked.map((row) => row.id)) });
    return result.affected ?? picked.length;
  });
}
