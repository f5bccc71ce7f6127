import type { EntityManager } from 'typeorm';

/**
 * An INSERT of `rows` rows of `columns` (`?` placeholders, row after row) that, where a row with the
 * same `key` exists, adds the new row's `added` columns to it instead: MySQL's ON DUPLICATE KEY
 * UPDATE, PostgreSQL's and SQLite's ON CONFLICT. Counters many instances add to at once (one
 * statement per flush, no read first).
 */
export function upsertAddingSql(
  manager: EntityManager,
  table: string,
  spec: { columns: string[]; key: string[]; added: string[]; rows: number },
): string {
  const values = Array.from({ length: spec.rows }, () => `(${spec.columns.map(() => '?').join(', ')})`).join(', ');
  const insert = `INSERT INTO ${table} (${spec.columns.join(', ')}) VALUES ${values}`;
  const type = manager.connection.options.type;
  if (type === 'mysql')
    return `${insert} ON DUPLICATE KEY UPDATE ${spec.added.map((name) => `${name} = ${name} + VALUES(${name})`).join(', ')}`;
  // PostgreSQL wants the existing row's columns named by their table (a bare name is ambiguous there).
  const current = type === 'postgres' ? `${table}.` : '';
  return `${insert} ON CONFLICT(${spec.key.join(', ')}) DO UPDATE SET ${spec.added.map((name) => `${name} = ${current}${name} + excluded.${name}`).join(', ')}`;
}
