import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { newDataSource } from '../src/database/sqlite-data-source';
import { databaseKinds, DatabaseKind, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

/** One column as the migrations left it: its name, a database-neutral type, and whether it takes NULL. */
type Column = { table: string; column: string; type: string; nullable: boolean };

/** The type families the `col` helpers produce, whatever each database calls them. */
const FAMILY: Record<string, string> = {
  int: 'integer',
  integer: 'integer',
  bigint: 'bigint',
  varchar: 'varchar',
  'character varying': 'varchar',
  text: 'text',
  mediumtext: 'text',
  longtext: 'text',
  double: 'double',
  'double precision': 'double',
  blob: 'blob',
  mediumblob: 'blob',
  bytea: 'blob',
};

async function schemaOf(database: FreshDatabase): Promise<Column[]> {
  const rows =
    database.kind === 'sqlite'
      ? await queryDatabase<{ table: string; column: string; type: string; notnull: number; pk: number }>(
          database,
          'SELECT m.name AS "table", p.name AS "column", p.type AS type, p."notnull" AS "notnull", p.pk AS pk FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = \'table\' AND m.name NOT LIKE \'sqlite_%\'',
        )
      : await queryDatabase<{ table: string; column: string; type: string; nullable: string }>(
          database,
          database.kind === 'mysql'
            ? 'SELECT TABLE_NAME AS `table`, COLUMN_NAME AS `column`, DATA_TYPE AS type, IS_NULLABLE AS nullable FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()'
            : 'SELECT table_name AS "table", column_name AS "column", data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = \'public\'',
        );
  return rows
    .filter((row) => row.table !== 'migrations')
    .map((row) => {
      const name = row.type.toLowerCase().replace(/\(.*\)$/, '');
      const nullable = 'notnull' in row ? !row.notnull && !row.pk : row.nullable === 'YES';
      return { table: row.table, column: row.column, type: FAMILY[name] ?? name, nullable };
    })
    .sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
}

/**
 * One set of migrations for SQLite, MySQL and PostgreSQL: on each configured database they leave the
 * same tables and columns, with the same nullability; MySQL and PostgreSQL also the same types
 * (SQLite keeps a type only as a hint, and `api_key` stays VARCHAR there: it enforces no length).
 */
describe('the migrations make the same schema on every database', () => {
  const schemas = new Map<DatabaseKind, Column[]>();
  const databases: FreshDatabase[] = [];

  beforeAll(async () => {
    for (const kind of databaseKinds()) {
      const database = await freshDatabase(kind);
      databases.push(database);
      const dataSource = await newDataSource(buildDataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database)).initialize();
      try {
        await dataSource.runMigrations({ transaction: 'each' });
      } finally {
        await dataSource.destroy();
      }
      schemas.set(kind, await schemaOf(database));
    }
  }, 120_000);

  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('has the same tables and columns, each as nullable, on all of them', () => {
    const [reference] = [...schemas.values()];
    expect(reference.length).toBeGreaterThan(50);
    for (const [kind, schema] of schemas) {
      const shape = (columns: Column[]) => columns.map(({ table, column, nullable }) => ({ table, column, nullable }));
      expect({ kind, columns: shape(schema) }).toEqual({ kind, columns: shape(reference) });
    }
  });

  const both = databaseKinds().includes('mysql') && databaseKinds().includes('postgres');
  (both ? it : it.skip)('gives each column the same type on MySQL and PostgreSQL', () => {
    expect(schemas.get('postgres')).toEqual(schemas.get('mysql'));
  });
});
