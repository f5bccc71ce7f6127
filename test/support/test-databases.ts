import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client, types as pgTypes } from 'pg';
import { numberPlaceholders } from '../../src/database/postgres-driver';
import { sqliteDriver } from '../../src/database/sqlite-driver';

export type DatabaseKind = 'sqlite' | 'mysql' | 'postgres';

export interface FreshDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

const mysqlUrl = process.env.TEST_MYSQL_URL;
const postgresUrl = process.env.TEST_POSTGRES_URL;
/** TEST_DATABASES=postgres (a comma list) runs only those of the configured kinds: e.g. to time one database. */
const only = process.env.TEST_DATABASES?.split(',').map((kind) => kind.trim());

/**
 * SQLite always; MySQL too when TEST_MYSQL_URL is set, PostgreSQL when TEST_POSTGRES_URL is (when
 * one is not, test/support/skip-reporter.js says so once, after the summary).
 */
export function databaseKinds(): DatabaseKind[] {
  const kinds: DatabaseKind[] = ['sqlite'];
  if (mysqlUrl) kinds.push('mysql');
  if (postgresUrl) kinds.push('postgres');
  return only ? kinds.filter((kind) => only.includes(kind)) : kinds;
}

const INT8_OID = 20;

/** A client on TEST_POSTGRES_URL, or on `url`; BIGINT comes back as a number, as mysql2 and better-sqlite3 give it to tests. */
async function postgresClient(url = postgresUrl!): Promise<Client> {
  const client = new Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pgTypes.getTypeParser(oid, format)) as never,
    },
  });
  await client.connect();
  return client;
}

/** A new, empty database for one e2e run. */
export async function freshDatabase(kind: DatabaseKind): Promise<FreshDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (kind === 'sqlite') {
    const path = join(tmpdir(), `gateway-test-${suffix}.sqlite`);
    return {
      kind,
      url: `sqlite:${path}`,
      drop: async () => {
        for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
      },
    };
  }
  const name = `gw_test_${suffix}`;
  if (kind === 'postgres') {
    const admin = await postgresClient();
    await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    return {
      kind,
      url: url.toString(),
      drop: async () => {
        const conn = await postgresClient();
        // FORCE: a gateway killed by a test may have left connections behind.
        await conn.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => conn.end());
      },
    };
  }
  const base = new URL(mysqlUrl!);
  const admin = await createConnection({ uri: mysqlUrl! });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    drop: async () => {
      const conn = await createConnection({ uri: mysqlUrl! });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/** `describe` once per database kind, each with its own fresh database. */
export function describeEachDatabase(name: string, body: (kind: DatabaseKind) => void): void {
  for (const kind of databaseKinds()) describe(`${name} [${kind}]`, () => body(kind));
}

/** A suite about MySQL/MariaDB itself (freezes behind a proxy, its pool, its collations): skipped, and said so, without TEST_MYSQL_URL. */
export const describeOnMysql = databaseKinds().includes('mysql') ? describe : describe.skip;

/** A suite about PostgreSQL itself (a frozen server of its own): skipped, and said so, without TEST_POSTGRES_URL. */
export const describeOnPostgres = databaseKinds().includes('postgres') ? describe : describe.skip;

/**
 * A suite whose behaviour does not depend on the database (request rules, a provider's protocol,
 * rendering, limits kept in memory) runs on SQLite only; suites about what the database does (money,
 * leases, migrations, collations, several instances) use describeEachDatabase. That keeps the run short.
 */
export function describeOnSqlite(name: string, body: (kind: DatabaseKind) => void): void {
  describe(`${name} [sqlite]`, () => body('sqlite'));
}

/**
 * A test inside a describeEachDatabase suite whose behaviour does not depend on the database (a
 * request rule, a header, Swagger, a page): defined for SQLite only, so the suite's shared set-up
 * serves it without running it three times. Elsewhere it is not defined at all (not a skip).
 */
export function itOnSqliteOnly(kind: DatabaseKind): jest.It {
  if (kind === 'sqlite') return it;
  const notDefined = (() => undefined) as unknown as jest.It;
  return Object.assign(notDefined, { each: () => notDefined, only: notDefined, skip: notDefined, todo: notDefined });
}

/** Reads rows straight from a test database (to check what the gateway left behind). */
export async function queryDatabase<T = Record<string, unknown>>(database: FreshDatabase, sql: string): Promise<T[]> {
  if (database.kind === 'sqlite') {
    const Sqlite = sqliteDriver() as new (
      path: string,
      options: { readonly: boolean },
    ) => { prepare(sql: string): { all(): unknown[] }; close(): void };
    const db = new Sqlite(database.url.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  }
  if (database.kind === 'postgres') {
    const client = await postgresClient(database.url);
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const conn = await createConnection({ uri: database.url });
  try {
    const [rows] = await conn.query(sql);
    return rows as T[];
  } finally {
    await conn.end();
  }
}

/** Writes straight into a test database (to set up rows as an older gateway left them). */
export async function executeOnDatabase(
  database: FreshDatabase,
  sql: string,
  parameters: Array<string | number | null> = [],
): Promise<void> {
  if (database.kind === 'sqlite') {
    const Sqlite = sqliteDriver() as new (path: string) => {
      prepare(sql: string): { run(...parameters: unknown[]): unknown };
      close(): void;
    };
    const db = new Sqlite(database.url.slice('sqlite:'.length));
    try {
      db.prepare(sql).run(...parameters);
    } finally {
      db.close();
    }
    return;
  }
  if (database.kind === 'postgres') {
    const client = await postgresClient(database.url);
    try {
      await client.query(numberPlaceholders(sql, parameters), parameters);
    } finally {
      await client.end();
    }
    return;
  }
  const conn = await createConnection({ uri: database.url });
  try {
    await conn.execute(sql, parameters);
  } finally {
    await conn.end();
  }
}
