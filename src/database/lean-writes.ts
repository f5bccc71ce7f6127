import type { EntityManager } from 'typeorm';

/**
 * Fixed write statements without TypeORM's query builder, for the submit's hot path, where building
 * an UPDATE or INSERT cost more than running it. The SQL is written once (so the driver's statement
 * cache keeps it prepared), with `?` for each parameter; it runs on `manager`'s connection, inside
 * its transaction when it has one. Both drivers: MySQL and better-sqlite3.
 */
export async function changedRows(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  return (await runWrite(manager, sql, parameters)).affected ?? 0;
}

/** An INSERT's generated id. */
export async function insertedId(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
  const { raw } = await runWrite(manager, sql, parameters);
  // mysql2 answers a result header, better-sqlite3 the last row id.
  return Number(typeof raw === 'object' && raw !== null ? (raw as { insertId: number | string }).insertId : raw);
}

async function runWrite(manager: EntityManager, sql: string, parameters: unknown[]): Promise<{ affected?: number; raw: unknown }> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return await runner.query(sql, parameters, true);
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
