import { performance } from 'node:perf_hooks';
import type { DataSource, ReplicationMode } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/**
 * `?` placeholders numbered as PostgreSQL wants them (`$1`, `$2`, ...), outside quoted strings and
 * names. The raw SQL of the repositories is written once with `?` for all three databases; SQL that
 * already numbers its parameters (TypeORM's own) is left as it is. A number parameter says its type
 * (`$1::bigint`, `$1::float8`): PostgreSQL otherwise takes a parameter in `CASE id WHEN ? THEN ? END`
 * for text, which no number column accepts (MySQL and SQLite convert).
 */
export function numberPlaceholders(sql: string, parameters: readonly unknown[] = []): string {
  if (!sql.includes('?') || /\$\d/.test(sql)) return sql;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = null;
      out += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === '?') {
      const value = parameters[n];
      out += `$${++n}${typeof value === 'number' ? (Number.isInteger(value) ? '::bigint' : '::float8') : ''}`;
    } else {
      out += char;
    }
  }
  return out;
}

/** node-postgres's own timeouts: a query over `query_timeout`, or no pool connection within `connectionTimeoutMillis`. */
export function isClientTimeout(error: unknown): boolean {
  const message = String(
    (error as { driverError?: { message?: unknown }; message?: unknown })?.driverError?.message ?? (error as Error)?.message,
  );
  return /^Query read timeout|timeout exceeded when trying to connect|Connection terminated due to connection timeout/.test(message);
}

/** The parts of a node-postgres client this needs: its per-client query_timeout, read when a query starts. */
interface PgClient {
  connectionParameters: { query_timeout?: number };
}

/**
 * TypeORM's PostgreSQL query runner with three changes:
 *
 * `?` placeholders (see numberPlaceholders).
 *
 * One deadline (DATABASE_QUERY_TIMEOUT_MS) across taking a pool connection and running the first
 * query on it: the first query gets what the wait left. Alone, each is bounded by the timeout
 * (the pool's connectionTimeoutMillis, the client's query_timeout), so a request queued behind
 * hung queries (the pool full while the server is frozen) answered only after twice the timeout.
 *
 * A connection whose query timed out on the client side (the server did not answer) goes back to
 * the pool as broken, which closes it. Left open, the next statement on it (the transaction's
 * ROLLBACK, the next borrower's query) would queue behind the unanswered one; closed, the server
 * rolls back whatever it had open.
 */
class GatewayPostgresQueryRunner extends PostgresQueryRunner {
  override async query(query: string, parameters?: unknown[], useStructuredResult = false): Promise<unknown> {
    const sql = parameters?.length ? numberPlaceholders(query, parameters) : query;
    try {
      if (this.databaseConnection || !this.budgetMs) return await super.query(sql, parameters, useStructuredResult);
      const started = performance.now();
      const client = (await this.connect()) as PgClient;
      const own = client.connectionParameters.query_timeout;
      client.connectionParameters.query_timeout = Math.max(1, Math.floor(this.budgetMs - (performance.now() - started)));
      try {
        return await super.query(sql, parameters, useStructuredResult);
      } finally {
        client.connectionParameters.query_timeout = own;
      }
    } catch (error) {
      // Released as broken: the pool ends it (node-postgres closes the socket of a client with a query in flight).
      if (isClientTimeout(error) && this.databaseConnection)
        await (this as unknown as { releasePostgresConnection(error: Error): Promise<void> }).releasePostgresConnection(error as Error);
      throw error;
    }
  }

  /** DATABASE_QUERY_TIMEOUT_MS, when set (migrations run without it). */
  private get budgetMs(): number {
    return Number((this.driver.options.extra as { query_timeout?: number } | undefined)?.query_timeout ?? 0);
  }
}

/**
 * The PostgreSQL driver whose query runners are GatewayPostgresQueryRunner, and which reads the
 * entities' MySQL/SQLite type names `blob` and `double` as BYTEA and DOUBLE PRECISION (what the
 * migrations create on PostgreSQL), so one entity declaration serves all three databases.
 */
export class GatewayPostgresDriver extends PostgresDriver {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  override normalizeType(column: Parameters<PostgresDriver['normalizeType']>[0]): string {
    if (column.type === 'blob') return 'bytea';
    if (column.type === 'double') return 'double precision';
    return super.normalizeType(column);
  }

  override createQueryRunner(mode: ReplicationMode): PostgresQueryRunner {
    return new GatewayPostgresQueryRunner(this, mode);
  }
}
