import { Injectable } from '@nestjs/common';
import { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { isSyncRowReader } from './sqlite-data-source';

/**
 * Measured gain of the lean reads over the framework's own path (CPU per request, the median of 24 alternated rounds
 * side by side on the 2-core machine, 2026-12-02): quote x1.95 (quartiles 1.78-2.38), GET /v1/videos/{id} x2.36 (1.74-2.97). Command: `BENCH=ab BENCH_BASELINE=<this code with it switched off> BENCH_AB_ROUTE=quote|get BENCH_ROUNDS=24 npm run bench`,
 * the baseline off: `findOne`/`findOneJoined` through TypeORM's query builder. Under x1.10 it would go back to the framework (docs/benchmarks.md, "The bypasses, measured").
 */

/** Makes the entity of one row from its values, in the order of the columns read (the SELECT list's). */
type Hydrator = (values: ArrayLike<unknown>) => ObjectLiteral;

/** A SELECT written once, its columns in order, and what makes the entity of its row. */
interface Read {
  sql: string;
  columns: ColumnMetadata[];
  /** The name each column comes back under where rows are objects: its own. */
  aliases: string[];
  hydrate: Hydrator;
}

/** A joined read: each side's entity, its clause (`r.` and `j.` qualify the columns) and the properties read of it. */
export interface JoinedShape<T, J> {
  row: { entity: EntityTarget<T>; where: string; properties: readonly (keyof T & string)[] };
  joined: { entity: EntityTarget<J>; on: string; properties: readonly (keyof J & string)[] };
}

/** A joined read's SELECT, its columns' aliases, how many are the row's, and the hydrators of both sides. */
interface JoinedRead {
  sql: string;
  aliases: string[];
  rowColumns: number;
  hydrateRow: Hydrator;
  hydrateJoined: Hydrator;
}

/** A property name that can be written as `entity.name` in generated code. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * One entity by a fixed WHERE clause, without TypeORM's query builder: for the hot paths (a task
 * poll, a submit's idempotency lookup, a key check), where building the query cost more than
 * running it. The SELECT is written once per entity and clause (so the driver's statement cache
 * keeps it prepared); a row becomes the entity exactly as TypeORM makes it (the driver's
 * hydration, the column transformers). It runs where a find outside a transaction runs: on
 * SQLite, the read connection (committed rows only), read there synchronously (a poll's one
 * statement cost less than TypeORM's query runner around it).
 */
@Injectable()
export class LeanReads {
  /** By entity, WHERE clause and column list (`*` for all); a column list's key is made once per array (callers pass constants). */
  private readonly reads = new Map<EntityMetadata, Map<string, Map<string, Read>>>();
  private readonly columnListKeys = new WeakMap<readonly string[], string>();
  private readonly hydrators = new Map<EntityMetadata, Map<string, Hydrator>>();
  /** findOneJoined's statements, by the caller's shape. */
  private readonly joinedReads = new WeakMap<object, JoinedRead>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * `where` names columns as in the database, with `?` for each of `parameters`. With `properties`,
   * only those columns are read (the entity then holds those alone): a check that needs two numbers
   * of a row reads two columns.
   */
  async findOne<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: string,
    parameters: unknown[],
    properties?: readonly (keyof T & string)[],
  ): Promise<T | null> {
    const read = this.readOf(this.dataSource.getMetadata(entity), where, properties);
    const values = await this.firstRowValues(read, parameters);
    return values ? (read.hydrate(values) as T) : null;
  }

  /**
   * One row of `shape.row.entity` and, in the same statement, the row of `shape.joined.entity` its
   * ON clause finds (LEFT JOIN: null when there is none). The clauses name columns as in the
   * database, qualified by the aliases `r` (the row) and `j` (the joined row), with `?` for each
   * parameter; only the listed properties are read. Two reads a request makes together cost one
   * statement (elsewhere than SQLite, one round trip) and see one snapshot. `shape` is a constant of
   * the caller's: its statement is written once.
   */
  async findOneJoined<T extends ObjectLiteral, J extends ObjectLiteral>(
    shape: JoinedShape<T, J>,
    rowParameters: unknown[],
    joinedParameters: unknown[],
  ): Promise<{ row: T; joined: J | null } | null> {
    let read = this.joinedReads.get(shape);
    if (!read) this.joinedReads.set(shape, (read = this.joinedReadOf(shape)));
    // The ON clause comes first in the statement's text, so its parameters do too.
    const values = await this.firstRowValues(read, [...joinedParameters, ...rowParameters]);
    if (!values) return null;
    const joinedValues = values.slice(read.rowColumns);
    // The joined row's key is read last: null there means the LEFT JOIN found no row.
    const key = joinedValues[joinedValues.length - 1];
    return {
      row: read.hydrateRow(values.slice(0, read.rowColumns)) as T,
      joined: key === null || key === undefined ? null : (read.hydrateJoined(joinedValues) as J),
    };
  }

  /** The first row's values in the SELECT's order: synchronously where the driver reads so, else through a "slave" query runner. */
  private async firstRowValues(read: { sql: string; aliases: string[] }, parameters: unknown[]): Promise<unknown[] | undefined> {
    const { driver } = this.dataSource;
    if (isSyncRowReader(driver)) return driver.readFirstRowValues(read.sql, parameters);
    const runner = driver.createQueryRunner('slave');
    try {
      const rows = (await runner.query(read.sql, parameters)) as Array<Record<string, unknown>>;
      const first = rows[0];
      return first ? read.aliases.map((alias) => first[alias]) : undefined;
    } finally {
      await runner.release();
    }
  }

  private joinedReadOf({ row, joined }: JoinedShape<ObjectLiteral, ObjectLiteral>): JoinedRead {
    const { driver } = this.dataSource;
    const rowMetadata = this.dataSource.getMetadata(row.entity);
    const joinedMetadata = this.dataSource.getMetadata(joined.entity);
    const rowColumns = row.properties.map((property) => columnOf(rowMetadata, property));
    const joinedColumns = joined.properties.map((property) => columnOf(joinedMetadata, property));
    const [primary] = joinedMetadata.primaryColumns;
    // Each column under an alias of its own: the two tables may share column names, and drivers that return objects key them by name.
    const selected = [
      ...rowColumns.map((column) => `r.${driver.escape(column.databaseName)}`),
      ...[...joinedColumns, primary].map((column) => `j.${driver.escape(column.databaseName)}`),
    ];
    const aliases = selected.map((_, index) => `c${index}`);
    const list = selected.map((expression, index) => `${expression} AS ${aliases[index]}`).join(', ');
    return {
      sql:
        `SELECT ${list} FROM ${driver.escape(rowMetadata.tableName)} r LEFT JOIN ${driver.escape(joinedMetadata.tableName)} j ` +
        `ON ${joined.on} WHERE ${row.where} LIMIT 1`,
      aliases,
      rowColumns: rowColumns.length,
      hydrateRow: this.hydratorOf(rowMetadata, rowColumns, `joined\n${this.columnListKey(row.properties)}`),
      hydrateJoined: this.hydratorOf(joinedMetadata, joinedColumns, `joined\n${this.columnListKey(joined.properties)}`),
    };
  }

  /** The SELECT of these columns (all of the entity's by default) and the hydrator of its rows, made once. */
  private readOf(metadata: EntityMetadata, where: string, properties: readonly string[] | undefined): Read {
    const columnList = properties ? this.columnListKey(properties) : '*';
    let byWhere = this.reads.get(metadata);
    if (!byWhere) this.reads.set(metadata, (byWhere = new Map()));
    let byColumns = byWhere.get(where);
    if (!byColumns) byWhere.set(where, (byColumns = new Map()));
    let read = byColumns.get(columnList);
    if (!read) {
      const key = `${metadata.tableName}\n${where}\n${columnList}`;
      const { driver } = this.dataSource;
      const columns = properties ? properties.map((property) => columnOf(metadata, property)) : metadata.columns;
      const list = columns.map((column) => driver.escape(column.databaseName)).join(', ');
      const sql = `SELECT ${list} FROM ${driver.escape(metadata.tableName)} WHERE ${where} LIMIT 1`;
      read = {
        sql,
        columns,
        aliases: columns.map((column) => column.databaseName),
        hydrate: this.hydratorOf(metadata, columns, properties ? key : '*'),
      };
      byColumns.set(columnList, read);
    }
    return read;
  }

  private columnListKey(properties: readonly string[]): string {
    let key = this.columnListKeys.get(properties);
    if (key === undefined) this.columnListKeys.set(properties, (key = properties.join(',')));
    return key;
  }

  private hydratorOf(metadata: EntityMetadata, columns: ColumnMetadata[], key: string): Hydrator {
    const byColumns = this.hydrators.get(metadata) ?? new Map<string, Hydrator>();
    this.hydrators.set(metadata, byColumns);
    let hydrator = byColumns.get(key);
    if (!hydrator) {
      hydrator = this.compiledHydrator(metadata, columns) ?? this.genericHydrator(metadata, columns);
      byColumns.set(key, hydrator);
    }
    return hydrator;
  }

  /**
   * As TypeORM's RawSqlResultsToEntityTransformer does for one row of plain columns: the entity as
   * metadata.create makes it for a row, each value through the driver's prepareHydratedValue (type
   * and transformers) and setEntityValue; a value the row lacks is left out.
   */
  private genericHydrator(metadata: EntityMetadata, columns: ColumnMetadata[]): Hydrator {
    const { driver } = this.dataSource;
    return (values) => {
      const entity = metadata.create(undefined, { fromDeserializer: true }) as ObjectLiteral;
      for (let index = 0; index < columns.length; index++) {
        const value = values[index];
        if (value !== undefined) columns[index].setEntityValue(entity, driver.prepareHydratedValue(value, columns[index]));
      }
      return entity;
    };
  }

  /**
   * The same entity, built by code written once per entity with a named store per column (as
   * MikroORM's hydrator does). Set one at a time under names held in variables, a task's 38 columns
   * left V8 a slow dictionary-mode object, and every read of it afterwards (the views, the JSON)
   * a hash lookup; named stores give every entity of a kind one shape. Only for entities where that
   * is all metadata.create and setEntityValue do (a class made without its constructor, plain
   * columns, no lazy relations, no typename property); undefined otherwise.
   */
  private compiledHydrator(metadata: EntityMetadata, columns: ColumnMetadata[]): Hydrator | undefined {
    const target = metadata.target;
    const plain = (column: ColumnMetadata) =>
      !column.embeddedMetadata && !(column.isVirtual && column.referencedColumn) && IDENTIFIER.test(column.propertyName);
    if (
      typeof target !== 'function' ||
      metadata.isAlwaysUsingConstructor ||
      this.dataSource.options.typename ||
      metadata.lazyRelations.length > 0 ||
      !metadata.columns.every(plain) ||
      new Set(metadata.columns.map((column) => column.propertyName)).size !== metadata.columns.length
    ) {
      return undefined;
    }
    const { driver } = this.dataSource;
    const body = columns
      .map(
        (column, index) =>
          `  value = values[${index}];\n  if (value !== undefined) entity.${column.propertyName} = prepare(value, columns[${index}]);`,
      )
      .join('\n');
    // The generated text holds only the columns' property names (identifiers, checked above) and indexes.
    const compile = new Function(
      'prototype',
      'columns',
      'prepare',
      `return function hydrate(values) {\n  const entity = Object.create(prototype);\n  let value;\n${body}\n  return entity;\n};`,
    ) as (prototype: object, columns: ColumnMetadata[], prepare: (value: unknown, column: ColumnMetadata) => unknown) => Hydrator;
    return compile((target as { prototype: object }).prototype, columns, (value, column) => driver.prepareHydratedValue(value, column));
  }
}

function columnOf(metadata: EntityMetadata, property: string): ColumnMetadata {
  const column = metadata.columns.find((each) => each.propertyName === property);
  if (!column) throw new Error(`${metadata.name} has no column ${property}`);
  return column;
}
