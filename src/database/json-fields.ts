import type { EntityManager } from 'typeorm';

/**
 * SQL reading one top-level field of a JSON object kept in a text column (`jsonColumn`), for sums and
 * groupings done in the database: SQLite's json_extract, MySQL's and MariaDB's JSON_EXTRACT (unquoted;
 * `+ 0` makes a number of the text on both), PostgreSQL's `->>` on the text cast to json. `column` and
 * `field` are the caller's own names, never a client's (they are written into the SQL).
 */
export function jsonFieldSql(manager: EntityManager, column: string, field: string, as: 'text' | 'number'): string {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(column) || !/^[a-z_][a-z0-9_]*$/i.test(field)) throw new Error('invalid JSON field reference');
  switch (manager.connection.options.type) {
    case 'mysql':
    case 'mariadb': {
      const text = `JSON_UNQUOTE(JSON_EXTRACT(${column}, '$.${field}'))`;
      return as === 'number' ? `(${text} + 0)` : text;
    }
    case 'postgres': {
      const text = `(CAST(${column} AS json) ->> '${field}')`;
      return as === 'number' ? `CAST(${text} AS double precision)` : text;
    }
    default:
      return `json_extract(${column}, '$.${field}')`;
  }
}
