import { Injectable } from '@nestjs/common';
import { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * One entity by a fixed WHERE clause, without TypeORM's query builder: for the hot paths (a task
 * poll, a submit's idempotency lookup, a key check), where building the query cost more than
 * running it. The SELECT is written once per entity and clause (so the driver's statement cache
 * keeps it prepared); a row becomes the entity exactly as TypeORM makes it (the driver's
 * hydration, the column transformers). It runs where a find outside a transaction runs: on
 * SQLite, the read connection (committed rows only).
 */
@Injectable()
export class LeanReads {
  private readonly statements = new Map<string, string>();

  constructor(private readonly dataSource: DataSource) {}

  /** `where` names columns as in the database, with `?` for each of `parameters`. */
  async findOne<T extends ObjectLiteral>(entity: EntityTarget<T>, where: string, parameters: unknown[]): Promise<T | null> {
    const metadata = this.dataSource.getMetadata(entity);
    const runner = this.dataSource.driver.createQueryRunner('slave');
    try {
      const rows = (await runner.query(this.select(metadata, where), parameters)) as Array<Record<string, unknown>>;
      return rows.length > 0 ? this.hydrate<T>(metadata, rows[0]) : null;
    } finally {
      await runner.release();
    }
  }

  private select(metadata: EntityMetadata, where: string): string {
    const key = `${metadata.tableName}\n${where}`;
    let sql = this.statements.get(key);
    if (!sql) {
      const { driver } = this.dataSource;
      const columns = metadata.columns.map((column) => driver.escape(column.databaseName)).join(', ');
      sql = `SELECT ${columns} FROM ${driver.escape(metadata.tableName)} WHERE ${where} LIMIT 1`;
      this.statements.set(key, sql);
    }
    return sql;
  }

  /** As TypeORM's RawSqlResultsToEntityTransformer does for one row of plain columns. */
  private hydrate<T>(metadata: EntityMetadata, row: Record<string, unknown>): T {
    const entity = metadata.create(undefined, { fromDeserializer: true }) as T & ObjectLiteral;
    for (const column of metadata.columns) {
      const value = row[column.databaseName];
      if (value !== undefined) column.setEntityValue(entity, this.dataSource.driver.prepareHydratedValue(value, column));
    }
    return entity;
  }
}
