import { MigrationInterface, QueryRunner, TableColumnOptions } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * Identifiers compare byte for byte on both databases. SQLite compares text bytewise already; on
 * MySQL/MariaDB the database default (`utf8mb4_general_ci`) made `task_ABC` equal `task_abc` and
 * `key` equal `key ` (trailing spaces), for task ids, Idempotency-Keys, key hashes and the like.
 * Here those columns get the binary collation without padding (`utf8mb4_nopad_bin` on MariaDB,
 * `utf8mb4_0900_bin` on MySQL 8, else `utf8mb4_bin`). Their type, length and nullability stay as
 * they are (read from information_schema), and so do their indexes. Going down fails (a unique
 * key violation) once identifiers exist that differ only in case or trailing spaces, as it must.
 */
export const IDENTIFIER_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  users: ['username', 'user_group'],
  api_keys: ['key_hash'],
  group_ratios: ['user_group'],
  settings: ['setting_key'],
  price_rules: ['model'],
  logs: ['task_id', 'model'],
  tasks: ['task_id', 'user_group', 'model', 'upstream_model', 'upstream_task_id', 'lease_owner', 'idempotency_key', 'request_hash'],
  console_sessions: ['token_hash'],
  verification_sessions: ['session_id', 'provider_token', 'group_id'],
  verification_groups: ['group_id', 'session_id'],
  verification_assets: ['asset_id', 'group_id', 'lease_owner'],
};

interface ColumnRow {
  table_name: string;
  column_name: string;
  column_type: string;
  is_nullable: string;
  column_default: string | null;
  charset: string | null;
}

const isMysql = (queryRunner: QueryRunner): boolean => ['mysql', 'mariadb'].includes(queryRunner.connection.options.type);
const quoteName = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

export class IdentifierCollation1764000000100 implements MigrationInterface {
  name = 'IdentifierCollation1764000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await setCollation(queryRunner, (charset) => binaryCollation(queryRunner, charset));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    // Back to each table's default collation (what the columns had before).
    await setCollation(queryRunner, async (_charset, table) => {
      const [row] = await queryRunner.query(
        'SELECT TABLE_COLLATION AS collation_name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
        [table],
      );
      return String(row.collation_name);
    });
  }
}

/** One ALTER TABLE per table, re-declaring each identifier column as it is, with `collationFor` its charset. */
async function setCollation(queryRunner: QueryRunner, collationFor: (charset: string, table: string) => Promise<string>): Promise<void> {
  for (const [table, columns] of Object.entries(IDENTIFIER_COLUMNS)) {
    const rows: ColumnRow[] = await queryRunner.query(
      `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable,
              COLUMN_DEFAULT AS column_default, CHARACTER_SET_NAME AS charset
         FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME IN (${columns.map(() => '?').join(', ')})`,
      [table, ...columns],
    );
    const changes: string[] = [];
    for (const row of rows) {
      const charset = row.charset ?? 'utf8mb4';
      const collation = await collationFor(charset, table);
      changes.push(
        `MODIFY ${quoteName(row.column_name)} ${row.column_type} CHARACTER SET ${charset} COLLATE ${collation} ` +
          `${row.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}${defaultClause(row.column_default)}`,
      );
    }
    if (changes.length > 0) await queryRunner.query(`ALTER TABLE ${quoteName(table)} ${changes.join(', ')}`);
  }
}

/** `DEFAULT '...'` when the column has one (MariaDB reports string defaults quoted, MySQL does not). */
function defaultClause(value: string | null): string {
  if (value === null || value === 'NULL') return '';
  const unquoted = /^'.*'$/s.test(value) ? value.slice(1, -1).replace(/''/g, "'") : value;
  return ` DEFAULT '${unquoted.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The charset's binary collation that does not pad: MariaDB `_nopad_bin`, MySQL 8 `_0900_bin`, else `_bin`. */
export async function binaryCollation(queryRunner: QueryRunner, charset: string): Promise<string> {
  const rows: Array<{ name: string }> = await queryRunner.query(
    'SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE CHARACTER_SET_NAME = ?',
    [charset],
  );
  const names = new Set(rows.map((row) => row.name));
  return [`${charset}_nopad_bin`, `${charset}_0900_bin`].find((name) => names.has(name)) ?? `${charset}_bin`;
}

/** A builder of identifier columns for later migrations: `col.str` with the binary collation on MySQL. */
export async function identifierColumn(
  queryRunner: QueryRunner,
): Promise<(name: string, length: number, nullable?: boolean) => TableColumnOptions> {
  const binary = isMysql(queryRunner) ? { charset: 'utf8mb4', collation: await binaryCollation(queryRunner, 'utf8mb4') } : {};
  return (name, length, nullable) => ({ ...col.str(name, length, nullable), ...binary });
}
