import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * Fixed write statements without TypeORM's query builder, for the submit's hot path, where building
 * an UPDATE or INSERT cost more than running it. The SQL is written once (so the driver's statement
 * cache keeps it prepared), with `?` for each parameter; it runs on `manager`'s connection, inside
 * its transaction when it has one. All three drivers: MySQL, PostgreSQL (placeholders numbered by
 * postgres-driver.ts) and better-sqlite3.
 */
export async function changedRows(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  return (await runWrite(manager, sql, parameters)).affected ?? 0;
}

/** An INSERT's generated id (the table's key column must be `id`). */
export async function insertedId(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  if (manager.connection.options.type === 'postgres') {
    // PostgreSQL reports no insert id: the statement returns it.
    const { records } = (await runWrite(manager, `${sql} RETURNING id`, parameters)) as { records?: Array<{ id: number | string }> };
    return Number(records?.[0]?.id);
  }
  const { raw } = await runWrite(manager, sql, parameters);
  // mysql2 answers a result header, better-sqlite3 the last row id.
  return Number(typeof raw === 'object' && raw !== null ? (raw as { insertId: number | string }).insertId : raw);
}

/**
 * Inserts one entity and returns its generated id: every column it carries a value for, each
 * converted as TypeORM would (column transformers, the driver's own conversions); a column it
 * leaves undefined gets the database's default. One INSERT per set of columns, written once.
 */
export async function insertEntity<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, entity: T): Promise<number> {
  const { driver } = manager.connection;
  const metadata = manager.connection.getMetadata(target);
  const columns: ColumnMetadata[] = [];
  const parameters: unknown[] = [];
  for (const column of metadata.columns) {
    if (column.isGenerated) continue;
    const value = column.getEntityValue(entity);
    if (value === undefined) continue;
    columns.push(column);
    parameters.push(driver.preparePersistentValue(value, column));
  }
  return insertedId(manager, insertSql(manager, metadata, columns), parameters);
}

/** By driver, table and columns (the drivers quote names differently). */
const insertStatements = new Map<string, string>();

function insertSql(manager: EntityManager, metadata: EntityMetadata, columns: ColumnMetadata[]): string {
  const names = columns.map((column) => column.databaseName);
  const key = `${manager.connection.options.type}\n${metadata.tableName}\n${names.join(',')}`;
  let sql = insertStatements.get(key);
  if (!sql) {
    const { driver } = manager.connection;
    sql = `INSERT INTO ${driver.escape(metadata.tableName)} (${names.map((name) => driver.escape(name)).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    insertStatements.set(key, sql);
  }
  return sql;
}

async function runWrite(manager: EntityManager, sql: string, parameters: unknown[]): Promise<{ affected?: number; raw: unknown }> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return await runner.query(sql, parameters, true);
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
