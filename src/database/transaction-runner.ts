import { Injectable } from '@nestjs/common';
import { Mutex } from 'async-mutex';
import { DataSource, EntityManager } from 'typeorm';

const DEADLOCK_ERRNOS = new Set([1213, 1205]); // ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT

/**
 * Runs a unit of work in one database transaction.
 * SQLite has one connection, so transactions are serialized here (a concurrent write would
 * otherwise join an open transaction); MySQL deadlock victims are retried.
 * Every write goes through `run`, so a balance change and its ledger row commit together.
 */
@Injectable()
export class TransactionRunner {
  private readonly sqliteLock = new Mutex();

  constructor(private readonly dataSource: DataSource) {}

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  /**
   * One statement that needs no transaction of its own (an atomic conditional UPDATE): saves
   * BEGIN/COMMIT round trips on the hot path. On SQLite it still waits for open transactions.
   */
  async runStatement<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isSqlite) return this.sqliteLock.runExclusive(() => work(this.dataSource.manager));
    return retryDeadlocks(() => work(this.dataSource.manager));
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.isSqlite) return this.sqliteLock.runExclusive(() => this.dataSource.transaction(work));
    return retryDeadlocks(() => this.dataSource.transaction(work));
  }
}

/** MySQL picks deadlock victims among concurrent writers; the victim's work is simply run again. */
async function retryDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}

function isDeadlock(error: unknown): boolean {
  const errno = (error as { driverError?: { errno?: number }; errno?: number })?.driverError?.errno ?? (error as { errno?: number })?.errno;
  return errno !== undefined && DEADLOCK_ERRNOS.has(errno);
}

/** A unique-key violation on either driver. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; errno?: number } })?.driverError ?? (error as { code?: string; errno?: number });
  return driverError?.code === 'ER_DUP_ENTRY' || driverError?.errno === 1062 || String(driverError?.code ?? '').startsWith('SQLITE_CONSTRAINT_UNIQUE') || String(driverError?.code ?? '') === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
