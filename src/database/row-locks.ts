import type { EntityManager } from 'typeorm';

const onSqlite = (manager: EntityManager): boolean => manager.connection.options.type === 'better-sqlite3';

/**
 * A SELECT (`?` placeholders) that takes the rows it returns for the caller's transaction and passes
 * over rows another transaction holds: `FOR UPDATE SKIP LOCKED` on MySQL and PostgreSQL, so that
 * concurrent claimers take different rows. SQLite has one writer, whose lock the unit of work holds
 * already (see TransactionRunner.runLockingRows): the SELECT is left as it is.
 */
export function selectSkippingLocked<Row>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<Row[]> {
  return manager.query(onSqlite(manager) ? sql : `${sql} FOR UPDATE SKIP LOCKED`, parameters);
}

/**
 * A SELECT (`?` placeholders) of the latest committed rows, locked until the caller's transaction
 * ends on MySQL and PostgreSQL (`FOR UPDATE`), so that a concurrent write either committed before
 * or waits. SQLite's one writer needs no row lock: the SELECT is left as it is.
 */
export function selectForUpdate<Row>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<Row[]> {
  return manager.query(onSqlite(manager) ? sql : `${sql} FOR UPDATE`, parameters);
}

/**
 * Holds one row of `table` (by its `id`) until the caller's transaction ends: what a check and the
 * write it allows need to run one at a time, on any instance. SQLite: a write takes the one write
 * lock at once (a read first would fail at its write if another process wrote meanwhile).
 */
export async function lockRow(manager: EntityManager, table: string, id: number): Promise<void> {
  if (onSqlite(manager)) await manager.query(`UPDATE ${table} SET id = id WHERE id = ?`, [id]);
  else await manager.query(`SELECT id FROM ${table} WHERE id = ? FOR UPDATE`, [id]);
}
