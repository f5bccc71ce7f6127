import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import type { DatabaseTarget } from '../config/app-config';
import { CloseTimedOutConnections } from './close-timed-out-connections.subscriber';
import { MIGRATIONS } from './migrations';
import { QuietQueryLogger } from './quiet-query-logger';
import { sqliteDriver } from './sqlite-driver';

/**
 * One description of the database for the app, the TypeORM CLI (ormconfig.ts) and tests. No entities:
 * each module registers its own (TypeOrmModule.forFeature), DatabaseModule loads them; migrations need none.
 * `queryTimeoutMs` bounds every MySQL query and connection attempt (SQLite waits at most that long
 * for a lock), and a MySQL connection whose query timed out is closed at once; leave it out for
 * migrations, whose DDL may legitimately run long. `poolSize` is the most MySQL connections open at once.
 * PostgreSQL gets the same bounds: statement_timeout and node-postgres's query_timeout per query,
 * connectTimeoutMS for a pool connection (src/database/postgres-driver.ts closes a timed-out one).
 */
export function buildDataSourceOptions(target: DatabaseTarget, queryTimeoutMs?: number, poolSize = 20): DataSourceOptions {
  const common = {
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
  } as const;
  if (target.kind === 'sqlite') {
    mkdirSync(dirname(target.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      driver: sqliteDriver(),
      database: target.path,
      // The busy timeout of both connections (the writer's, and the reads' one: see sqlite-data-source.ts).
      timeout: queryTimeoutMs ?? 5000,
      // WAL lets readers proceed while one writer commits; busy_timeout waits instead of failing.
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('journal_mode = WAL');
        db.pragma(`busy_timeout = ${queryTimeoutMs ?? 5000}`);
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  if (target.kind === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: target.url,
      // node-postgres's pool: its size, and how long a request waits for a connection (or its opening).
      poolSize,
      ...(queryTimeoutMs
        ? {
            connectTimeoutMS: queryTimeoutMs,
            logger: new QuietQueryLogger(),
            extra: {
              // The server ends a statement (and its lock waits) past the timeout; the client stops
              // waiting for a server that does not answer at all (a frozen or unreachable one).
              statement_timeout: queryTimeoutMs,
              query_timeout: queryTimeoutMs,
              // A transaction left open by a vanished client does not keep its row locks.
              idle_in_transaction_session_timeout: Math.max(queryTimeoutMs * 6, 60_000),
            },
          }
        : {}),
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: target.url,
    // BIGINT as strings keeps precision; the column transformer turns them into numbers.
    supportBigNumbers: true,
    bigNumberStrings: true,
    charset: 'utf8mb4',
    timezone: 'Z',
    extra: { connectionLimit: poolSize },
    ...(queryTimeoutMs
      ? {
          enableQueryTimeout: true,
          maxQueryExecutionTime: queryTimeoutMs,
          connectTimeout: queryTimeoutMs,
          logger: new QuietQueryLogger(),
          subscribers: [CloseTimedOutConnections],
        }
      : {}),
  };
}
