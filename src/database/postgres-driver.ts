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

/**
 * TypeORM's PostgreSQL query runner with two changes: `?` placeholders (see numberPlaceholders), and
 * a connection whose query timed out on the client side (DATABASE_QUERY_TIMEOUT_MS, node-postgres's
 * query_timeout: the server did not answer) goes back to the pool as broken, which closes it. Left
 * open, the next statement on it (the transaction's ROLLBACK, the next borrower's query) would queue
 * behind the unanswered one for good; closed, the server rolls back whatever it had open.
 */
class GatewayPostgresQueryRunner extends PostgresQueryRunner {
  override async query(query: string, parameters?: unknown[], useStructuredResult = false): Promise<unknown> {
    try {
      return await super.query(parameters?.length ? numberPlaceholders(query, parameters) : query, parameters, useStructuredResult);
    } catch (error) {
      // Released as broken: the pool ends it (node-postgres closes the socket of a client with a query in flight).
      if (isClientTimeout(error) && this.databaseConnection)
        await (this as unknown as { releasePostgresConnection(error: Error): Promise<void> }).releasePostgresConnection(error as Error);
      throw error;
    }
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
