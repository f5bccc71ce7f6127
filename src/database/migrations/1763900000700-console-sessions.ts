import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** Server-side web console sessions (hashed session ids). */
export class ConsoleSessions1763900000700 implements MigrationInterface {
  name = 'ConsoleSessions1763900000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'console_sessions',
        columns: [
          col.id(),
          col.str('token_hash', 64),
          col.str('kind', 16),
          col.int('user_id', true),
          col.bigint('created_at'),
          col.bigint('expires_at'),
        ],
        indices: [
          { name: 'uq_console_sessions_token', columnNames: ['token_hash'], isUnique: true },
          { name: 'ix_console_sessions_user', columnNames: ['user_id'] },
          { name: 'ix_console_sessions_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('console_sessions');
  }
}
