import type { EntityManager } from 'typeorm';
import { changedRows } from '../database/lean-writes';
import { selectSkippingLocked } from '../database/row-locks';
import type { TransactionRunner } from '../database/transaction-runner';

/** SQL with `?` placeholders, and their values in order. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/**
 * How a background job leases rows of its owner's table: which rows may be taken now, in which
 * order, and what taking one writes (its lease owner, and the lease's end, usually also as the time
 * the row is due again, so that a crashed owner's rows come back by themselves when it runs out).
 */
export interface LeaseClaim {
  /** The table, as `claimable` names it (a condition may refer to its columns as `<table>.<column>`). */
  table: string;
  /** The key column (`id` unless given); its values are numbers. */
  key?: string;
  /** What makes a row claimable now: checked when picking and again by the UPDATE that takes the rows, so a row changed in between stays. */
  claimable: SqlPart;
  /** Checked when picking only: what needs no second look (an endpoint out of room). */
  pickOnly?: SqlPart;
  /** The pick's ORDER BY: the longest due first. */
  order: string;
  /** How many candidates the pick reads. */
  limit: number;
  /** Columns the pick reads besides the key, for `choose`. */
  columns?: string[];
  /** Which of the candidates (each with its key as `id`) to take: their keys. All of them when not given. */
  choose?: (candidates: Array<Record<string, unknown>>) => number[];
  /** The SET list that takes a row: its owner and its lease's end. */
  lease: SqlPart;
}

/**
 * The one lease claim of the background jobs: picks the due rows (with SKIP LOCKED on MySQL and
 * PostgreSQL, so that concurrent instances take different rows; SQLite serializes writers anyway),
 * then takes them with a conditional UPDATE that checks `claimable` again, which is what makes a
 * claim exclusive on every database. Returns the keys picked when the UPDATE took any (then read
 * back what the owner holds), or none. `readBack`, when given, reads them in the same unit of work.
 */
export function claimLease(transactions: TransactionRunner, claim: LeaseClaim): Promise<number[]>;
export function claimLease<T>(
  transactions: TransactionRunner,
  claim: LeaseClaim,
  readBack: (manager: EntityManager, picked: number[]) => Promise<T[]>,
): Promise<T[]>;
export function claimLease<T>(
  transactions: TransactionRunner,
  claim: LeaseClaim,
  readBack?: (manager: EntityManager, picked: number[]) => Promise<T[]>,
): Promise<Array<T | number>> {
  const key = claim.key ?? 'id';
  const columns = [key === 'id' ? 'id' : `${key} AS id`, ...(claim.columns ?? [])].join(', ');
  const pickOnly = claim.pickOnly ? ` AND ${claim.pickOnly.sql}` : '';
  const pick =
    `SELECT ${columns} FROM ${claim.table} WHERE ${claim.claimable.sql}${pickOnly} ` +
    `ORDER BY ${claim.order} LIMIT ${Math.floor(claim.limit)}`;
  return transactions.runLockingRows(async (manager) => {
    const candidates = await selectSkippingLocked<Record<string, unknown>>(manager, pick, [
      ...claim.claimable.params,
      ...(claim.pickOnly?.params ?? []),
    ]);
    const picked = claim.choose ? claim.choose(candidates) : candidates.map((row) => Number(row.id));
    if (picked.length === 0) return [];
    const take =
      `UPDATE ${claim.table} SET ${claim.lease.sql} ` + `WHERE ${key} IN (${picked.map(() => '?').join(', ')}) AND ${claim.claimable.sql}`;
    const taken = await changedRows(manager, take, [...claim.lease.params, ...picked, ...claim.claimable.params]);
    if (taken === 0) return [];
    return readBack ? readBack(manager, picked) : picked;
  });
}
