import { Injectable } from '@nestjs/common';
import { Mutex } from 'async-mutex';
import { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import { SettingEntity } from './setting.entity';

const DEADLOCK_ERRNOS = new Set([1213, 1205]); // ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT
/** PostgreSQL's deadlock and serialization victims (SQLSTATE). */
const DEADLOCK_SQLSTATES = new Set(['40P01', '40001']);

/** The parts of TypeORM's shared better-sqlite3 query runner whose bookkeeping can drift from the connection. */
interface SqliteDriverState {
  databaseConnection: { inTransaction: boolean; exec(sql: string): unknown };
  queryRunner?: { isTransactionActive: boolean; transactionDepth: number };
}

/**
 * Runs a unit of work in one database transaction.
 * SQLite has one writer connection, so transactions are serialized here (a concurrent write would
 * otherwise join an open transaction); MySQL and PostgreSQL deadlock victims are retried.
 * Every write goes through `run`, so a balance change and its ledger row commit together.
 */
@Injectable()
export class TransactionRunner {
  private readonly sqliteLock = new Mutex();
  /** Since when writes have been failing for want of a usable database (null while they commit). */
  private writeFaultSince: number | null = null;

  constructor(private readonly dataSource: DataSource) {}

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  get isPostgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  /**
   * One statement that needs no transaction of its own (an atomic conditional UPDATE): saves
   * BEGIN/COMMIT round trips on the hot path. On SQLite it still waits for open transactions.
   */
  async runStatement<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.track(() =>
      this.isSqlite ? this.exclusiveOnSqlite(() => work(this.dataSource.manager)) : retryDeadlocks(() => work(this.dataSource.manager)),
    );
  }

  /**
   * A unit of work that locks the rows it reads, then writes them (a lease claim, see
   * row-locks.ts): a transaction on MySQL and PostgreSQL, whose row locks last until it ends; on
   * SQLite, whose one writer already makes its statements one step, no BEGIN/COMMIT round trips.
   */
  runLockingRows<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.isSqlite ? this.runStatement(work) : this.run(work);
  }

  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.track(() =>
      this.isSqlite
        ? this.exclusiveOnSqlite(() => this.dataSource.transaction(work))
        : retryDeadlocks(() => this.dataSource.transaction(work)),
    );
  }

  /** True once a write failed for want of a usable database and no health probe has committed since. */
  get writesFailing(): boolean {
    return this.writeFaultSince !== null;
  }

  /**
   * Commits one tiny write that always changes a row; clears `writesFailing` when it works (the
   * health check's probe). Only the probe clears it: another unit of work may succeed without
   * writing a byte (an UPDATE that matched no row commits even on a full disk).
   */
  async probeWrite(): Promise<void> {
    await this.run((manager) => manager.upsert(SettingEntity, { key: 'health.write_probe', value: String(Date.now()) }, ['key']));
    this.writeFaultSince = null;
  }

  private async track<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.writeFaultSince ??= Date.now();
      throw error;
    }
  }

  private exclusiveOnSqlite<T>(work: () => Promise<T>): Promise<T> {
    return this.sqliteLock.runExclusive(async () => {
      try {
        return await work();
      } finally {
        this.restoreSqliteConnection();
      }
    });
  }

  /**
   * Between units of work no transaction is open. TypeORM's one shared SQLite query runner assumes
   * COMMIT and ROLLBACK always succeed: after a failed COMMIT (a full disk) it still counts a
   * transaction, so the next one becomes a SAVEPOINT and a later ROLLBACK TO leaves a real
   * transaction open for good, silently swallowing every later write. Make the connection and the
   * bookkeeping agree again.
   */
  private restoreSqliteConnection(): void {
    const driver = this.dataSource.driver as unknown as SqliteDriverState;
    if (driver.queryRunner) {
      driver.queryRunner.isTransactionActive = false;
      driver.queryRunner.transactionDepth = 0;
    }
    if (driver.databaseConnection.inTransaction) driver.databaseConnection.exec('ROLLBACK');
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
  const code = (error as { driverError?: { code?: unknown }; code?: unknown })?.driverError?.code ?? (error as { code?: unknown })?.code;
  return (errno !== undefined && DEADLOCK_ERRNOS.has(errno)) || (typeof code === 'string' && DEADLOCK_SQLSTATES.has(code));
}

/** A unique-key violation on any of the three drivers (PostgreSQL: SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const driverError =
    (error as { driverError?: { code?: string; errno?: number } })?.driverError ?? (error as { code?: string; errno?: number });
  return (
    driverError?.code === 'ER_DUP_ENTRY' ||
    driverError?.code === '23505' ||
    driverError?.errno === 1062 ||
    String(driverError?.code ?? '').startsWith('SQLITE_CONSTRAINT_UNIQUE') ||
    String(driverError?.code ?? '') === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
