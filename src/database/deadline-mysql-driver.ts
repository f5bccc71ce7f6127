import { performance } from 'node:perf_hooks';
import type { DataSource, ReplicationMode } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { withinTime } from '../common/runtime/within-time';

/** The part of a mysql2 pool connection this needs. */
interface PooledConnection {
  release(): void;
}

/** What isDatabaseUnavailable recognises as a timeout: the client gets a 503 with Retry-After. */
function acquireTimedOut(budgetMs: number): Error {
  return Object.assign(new Error(`no database connection within ${budgetMs} ms`), { code: 'ETIMEDOUT' });
}

/**
 * TypeORM's MySQL query runner with one deadline (DATABASE_QUERY_TIMEOUT_MS) across taking a pool
 * connection and running the first query on it. Alone, each is bounded by that timeout, so a
 * query waiting for a connection that a hung query holds (the pool full while the database is
 * frozen) answered only after twice the timeout, or more.
 */
class DeadlineMysqlQueryRunner extends MysqlQueryRunner {
  private readonly budgetMs: number;
  /** Set when the wait for a connection ran out: later statements of this runner (a ROLLBACK) fail at once instead of waiting again. */
  private acquireError: Error | null = null;

  constructor(driver: MysqlDriver, mode: ReplicationMode) {
    super(driver, mode);
    this.budgetMs = Number(driver.options.maxQueryExecutionTime);
  }

  override connect(): Promise<unknown> {
    if (!this.databaseConnection && this.acquireError) return Promise.reject(this.acquireError);
    if (this.databaseConnection || (this as unknown as { databaseConnectionPromise?: unknown }).databaseConnectionPromise)
      return super.connect();
    const acquiring = super.connect() as Promise<PooledConnection>;
    return withinTime(acquiring, this.budgetMs, () => acquireTimedOut(this.budgetMs)).catch((error: Error) => {
      this.acquireError = error;
      // The connection may still come: give it back to the pool if this runner was released meanwhile.
      void acquiring.then((late) => (this.isReleased ? late.release() : undefined)).catch(() => undefined);
      throw error;
    });
  }

  override async query(query: string, parameters?: unknown[], useStructuredResult = false): Promise<unknown> {
    if (this.databaseConnection) return super.query(query, parameters, useStructuredResult);
    const started = performance.now();
    await this.connect();
    const leftMs = Math.max(1, Math.floor(this.budgetMs - (performance.now() - started)));
    // The first query has what the wait for its connection left of the budget (the driver's options are read per query).
    const driver = this.driver;
    Object.assign(this, { driver: Object.create(driver, { options: { value: { ...driver.options, maxQueryExecutionTime: leftMs } } }) });
    try {
      return await super.query(query, parameters, useStructuredResult);
    } finally {
      Object.assign(this, { driver });
    }
  }
}

/** The MySQL driver whose query runners keep one deadline across connection and first query. */
export class DeadlineMysqlDriver extends MysqlDriver {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  override createQueryRunner(mode: ReplicationMode): MysqlQueryRunner {
    return new DeadlineMysqlQueryRunner(this, mode);
  }
}
