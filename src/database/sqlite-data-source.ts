import { DataSource, DataSourceOptions, ObjectLiteral, QueryFailedError, QueryRunner, ReplicationMode } from 'typeorm';
import { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { DeadlineMysqlDriver } from './deadline-mysql-driver';
import { GatewayPostgresDriver } from './postgres-driver';

/** A number parameter in disguise, so that TypeORM binds it instead of writing it into the SQL. */
class BoundNumber {
  constructor(private readonly value: number) {}

  /** What the literal would have been: INTEGER for a whole number, REAL otherwise. */
  binding(): number | bigint {
    return Number.isSafeInteger(this.value) ? BigInt(this.value) : this.value;
  }
}

interface SqliteStatement {
  get(...parameters: unknown[]): unknown;
  /** Rows as arrays of the selected values rather than objects keyed by column name. */
  raw(toggle: boolean): SqliteStatement;
}

interface SqliteHandle {
  pragma(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/**
 * A driver that reads one row synchronously, on the connection TypeORM's "slave" query runner uses,
 * with the statement prepared once: the lean reads (src/database/lean-reads.ts) take this path when
 * the driver has it.
 */
export interface SyncRowReader {
  /** The first row's values, in the order the SELECT lists them; undefined when there is none. */
  readFirstRowValues(sql: string, parameters: unknown[]): unknown[] | undefined;
}

export const isSyncRowReader = (driver: object): driver is SyncRowReader =>
  typeof (driver as Partial<SyncRowReader>).readFirstRowValues === 'function';

/** TypeORM's better-sqlite3 query runner, on the read-only handle instead of the driver's one. */
class ReadOnlyQueryRunner extends BetterSqlite3QueryRunner {
  constructor(
    driver: BetterSqlite3Driver,
    private readonly handle: SqliteHandle,
  ) {
    super(driver);
  }

  override connect(): Promise<SqliteHandle> {
    return Promise.resolve(this.handle);
  }
}

/**
 * better-sqlite3 as TypeORM drives it, with two changes:
 *
 * A second, read-only connection for the reads made outside a transaction.
 * TypeORM asks for a "slave" query runner exactly there (a select outside a transaction); a
 * transaction's own statements stay on the one writer connection. With WAL every read then sees
 * the last committed state: never the rows of a transaction still open on the writer (which may
 * yet roll back), and every commit that finished before the read started.
 *
 * Numbers bound as parameters. TypeORM writes a number parameter into the SQL text, so a statement
 * with a timestamp or an amount is new text every time: SQLite parses and plans it anew and it
 * pushes the hot statements out of the statement cache. Bound instead (integers as BigInt, which
 * better-sqlite3 binds as INTEGER, exactly what the literal was), each statement is prepared once.
 */
class ReadWriteSqliteDriver extends BetterSqlite3Driver implements SyncRowReader {
  private reader?: { handle: SqliteHandle; runner: QueryRunner; statements: Map<string, SqliteStatement> };

  override async connect(): Promise<void> {
    await super.connect();
    const { database, timeout = 5000 } = this.options;
    // Opened after the writer, which created the file and switched it to WAL.
    const Sqlite = this.sqlite as new (path: string, options: object) => SqliteHandle;
    const handle = new Sqlite(database, { readonly: true, fileMustExist: true, timeout });
    handle.pragma(`busy_timeout = ${timeout}`);
    this.reader = { handle, runner: new ReadOnlyQueryRunner(this, handle), statements: new Map() };
  }

  /**
   * The first row of a SELECT on the read-only connection, as the "slave" query runner would read it
   * (booleans bound as 0/1, a failure as its QueryFailedError; this data source logs no queries and
   * has no subscribers), without the runner's promises, events and timing around one synchronous
   * call, and as an array of values: better-sqlite3 builds a row object one named property at a
   * time, which for a task's 38 columns cost more than the statement. The lean reads' statements are
   * a few fixed texts, each prepared once.
   */
  readFirstRowValues(sql: string, parameters: unknown[]): unknown[] | undefined {
    const bound = parameters.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
    try {
      const reader = this.reader;
      if (!reader) throw new Error('the SQLite read connection is closed');
      let statement = reader.statements.get(sql);
      if (!statement) {
        statement = reader.handle.prepare(sql).raw(true);
        reader.statements.set(sql, statement);
      }
      return statement.get(...bound) as unknown[] | undefined;
    } catch (error) {
      throw new QueryFailedError(sql, bound, error as Error);
    }
  }

  override escapeQueryWithParameters(sql: string, parameters: ObjectLiteral): [string, unknown[]] {
    const bound: ObjectLiteral = {};
    for (const [key, value] of Object.entries(parameters ?? {})) bound[key] = typeof value === 'number' ? new BoundNumber(value) : value;
    const [query, values] = super.escapeQueryWithParameters(sql, bound);
    return [query, values.map((value) => (value instanceof BoundNumber ? value.binding() : value))];
  }

  override createQueryRunner(mode: ReplicationMode): QueryRunner {
    return mode === 'slave' && this.reader ? this.reader.runner : super.createQueryRunner(mode);
  }

  override async disconnect(): Promise<void> {
    this.reader?.handle.close();
    this.reader = undefined;
    await super.disconnect();
  }
}

/**
 * A data source for `options`; on a SQLite file, with its reads on a read-only connection of their
 * own; on MySQL with a query timeout, with one deadline across a query's wait for a connection and the query;
 * on PostgreSQL, with `?` placeholders and timed-out connections closed (postgres-driver.ts).
 */
export function newDataSource(options: DataSourceOptions): DataSource {
  const dataSource = new DataSource(options);
  // The driver is made in DataSource's constructor from `type`; nothing has used it yet.
  if (options.type === 'better-sqlite3' && options.database !== ':memory:') {
    Object.assign(dataSource, { driver: new ReadWriteSqliteDriver(dataSource) });
  } else if (options.type === 'mysql' && options.maxQueryExecutionTime) {
    Object.assign(dataSource, { driver: new DeadlineMysqlDriver(dataSource) });
  } else if (options.type === 'postgres') {
    Object.assign(dataSource, { driver: new GatewayPostgresDriver(dataSource) });
  }
  return dataSource;
}
