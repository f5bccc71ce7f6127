import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

/**
 * Column helpers that produce the same schema on MySQL, PostgreSQL and SQLite. The ones whose type
 * name differs by database take the query runner (PostgreSQL has no DOUBLE, LONGTEXT or BLOB).
 */
export const col = {
  id: (): TableColumnOptions => ({ name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
  int: (name: string, nullable = false, fallback?: number): TableColumnOptions => ({
    name,
    type: 'integer',
    isNullable: nullable,
    default: fallback,
  }),
  bigint: (name: string, nullable = false, fallback?: number): TableColumnOptions => ({
    name,
    type: 'bigint',
    isNullable: nullable,
    default: fallback,
  }),
  str: (name: string, length: number, nullable = false): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(length),
    isNullable: nullable,
  }),
  text: (name: string, nullable = true): TableColumnOptions => ({ name, type: 'text', isNullable: nullable }),
  /** Up to megabytes (raw upstream bodies): LONGTEXT on MySQL, TEXT elsewhere. */
  longText: (queryRunner: QueryRunner, name: string, nullable = true): TableColumnOptions => ({
    name,
    type: queryRunner.dataSource.options.type === 'mysql' ? 'longtext' : 'text',
    isNullable: nullable,
  }),
  /** DOUBLE PRECISION: a DOUBLE on MySQL, REAL on SQLite, and the only spelling PostgreSQL knows. */
  double: (name: string): TableColumnOptions => ({ name, type: 'double precision' }),
  /** Bytes: MEDIUMBLOB (up to 16 MB) on MySQL, BYTEA on PostgreSQL, BLOB on SQLite. */
  blob: (queryRunner: QueryRunner, name: string, nullable = false): TableColumnOptions => ({
    name,
    type: { mysql: 'mediumblob', mariadb: 'mediumblob', postgres: 'bytea' }[queryRunner.connection.options.type as string] ?? 'blob',
    isNullable: nullable,
  }),
};

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          col.id(),
          col.str('username', 64),
          col.str('user_group', 64),
          col.str('status', 16),
          col.str('role', 16),
          col.bigint('quota', false, 0),
          col.bigint('used_quota', false, 0),
          col.int('verification_enabled', false, 0),
          col.str('password_hash', 255, true),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
        indices: [{ name: 'uq_users_username', columnNames: ['username'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          col.id(),
          col.int('user_id'),
          col.str('name', 128),
          col.str('key_hash', 64),
          col.str('key_hint', 16),
          col.text('models'),
          col.str('status', 16),
          col.bigint('created_at'),
          col.bigint('revoked_at', true),
        ],
        indices: [
          { name: 'uq_api_keys_hash', columnNames: ['key_hash'], isUnique: true },
          { name: 'ix_api_keys_user', columnNames: ['user_id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'channels',
        columns: [
          col.id(),
          col.str('name', 128),
          col.str('platform', 16),
          col.str('base_url', 512),
          col.str('api_key', 512),
          col.text('models', false),
          col.text('model_mapping'),
          col.text('settings'),
          col.text('user_groups'),
          col.int('priority', false, 0),
          col.int('weight', false, 1),
          col.str('status', 16),
          col.bigint('request_count', false, 0),
          col.bigint('error_count', false, 0),
          col.text('last_error'),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'price_rules',
        columns: [
          col.id(),
          col.str('model', 64),
          col.str('resolution', 16),
          col.str('unit', 16),
          col.int('duration', false, 0),
          col.bigint('price'),
          col.bigint('audio_price', true),
        ],
        indices: [{ name: 'uq_price_rules', columnNames: ['model', 'resolution', 'duration'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({ name: 'group_ratios', columns: [{ ...col.str('user_group', 64), isPrimary: true }, col.double('ratio')] }),
    );
    await queryRunner.createTable(
      new Table({ name: 'settings', columns: [{ ...col.str('setting_key', 128), isPrimary: true }, col.text('value', false)] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'logs',
        columns: [
          col.id(),
          col.str('type', 16),
          col.int('user_id'),
          col.str('task_id', 64, true),
          col.str('model', 64, true),
          col.bigint('quota'),
          col.bigint('balance_after'),
          col.int('channel_id', true),
          col.text('detail'),
          col.bigint('created_at'),
        ],
        indices: [
          // At most one charge and one refund per task, enforced by the database.
          { name: 'uq_logs_task_type', columnNames: ['task_id', 'type'], isUnique: true },
          { name: 'ix_logs_user_created', columnNames: ['user_id', 'created_at'] },
          { name: 'ix_logs_type_created', columnNames: ['type', 'created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'tasks',
        columns: [
          col.id(),
          col.str('task_id', 64),
          col.int('user_id'),
          col.int('api_key_id', true),
          col.str('user_group', 64),
          col.str('platform', 16),
          col.str('model', 64),
          col.str('upstream_model', 64),
          col.str('action', 32),
          col.int('channel_id', true),
          col.str('upstream_task_id', 128, true),
          col.str('status', 16),
          col.int('progress', false, 0),
          col.bigint('quota', false, 0),
          col.longText(queryRunner, 'request', false),
          col.text('properties'),
          col.longText(queryRunner, 'upstream_response'),
          col.text('result_url'),
          col.str('output_size', 32, true),
          col.text('fail_reason'),
          col.bigint('submit_time', true),
          col.bigint('start_time', true),
          col.bigint('finish_time', true),
          col.bigint('next_poll_at', true),
          col.str('lease_owner', 64, true),
          col.bigint('lease_until', true),
          col.int('poll_failures', false, 0),
          col.str('idempotency_key', 255, true),
          col.str('request_hash', 64, true),
          col.bigint('deleted_at', true),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
        indices: [
          { name: 'uq_tasks_task_id', columnNames: ['task_id'], isUnique: true },
          { name: 'uq_tasks_idempotency', columnNames: ['user_id', 'idempotency_key'], isUnique: true },
          { name: 'ix_tasks_due', columnNames: ['status', 'next_poll_at'] },
          { name: 'ix_tasks_user_created', columnNames: ['user_id', 'created_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['tasks', 'logs', 'settings', 'group_ratios', 'price_rules', 'channels', 'api_keys', 'users']) {
      await queryRunner.dropTable(table);
    }
  }
}
