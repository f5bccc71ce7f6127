import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** Real-person verification: applications, sessions, groups and portrait assets. */
export class Verification1763900000800 implements MigrationInterface {
  name = 'Verification1763900000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'verification_applications',
        columns: [
          col.id(),
          col.int('user_id'),
          col.str('company', 200),
          col.text('use_case', false),
          col.str('contact', 200),
          col.str('status', 16),
          col.text('review_note'),
          col.bigint('reviewed_at', true),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
        indices: [
          { name: 'ix_verification_applications_user', columnNames: ['user_id'] },
          { name: 'ix_verification_applications_status', columnNames: ['status', 'created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'verification_sessions',
        columns: [
          col.id(),
          col.str('session_id', 64),
          col.int('user_id'),
          col.int('channel_id'),
          col.str('provider_token', 191),
          col.text('callback_url', false),
          col.text('h5_link', false),
          col.str('status', 16),
          col.str('group_id', 128, true),
          col.str('result_code', 32, true),
          col.str('algorithm_base_resp_code', 64, true),
          col.str('req_measure_info_value', 255, true),
          col.str('verify_type', 32, true),
          col.bigint('callback_at', true),
          col.bigint('confirmed_at', true),
          col.bigint('checked_at', true),
          col.bigint('expires_at'),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
        indices: [
          { name: 'uq_verification_sessions_session_id', columnNames: ['session_id'], isUnique: true },
          { name: 'uq_verification_sessions_token', columnNames: ['provider_token'], isUnique: true },
          { name: 'ix_verification_sessions_user', columnNames: ['user_id', 'created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'verification_groups',
        columns: [
          col.id(),
          col.str('group_id', 128),
          col.int('user_id'),
          col.int('channel_id'),
          col.str('session_id', 64),
          col.bigint('created_at'),
        ],
        indices: [
          { name: 'uq_verification_groups_group_id', columnNames: ['group_id'], isUnique: true },
          { name: 'ix_verification_groups_user', columnNames: ['user_id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'verification_assets',
        columns: [
          col.id(),
          col.str('asset_id', 128),
          col.str('group_id', 128),
          col.int('user_id'),
          col.int('channel_id'),
          col.str('name', 128),
          col.text('url', false),
          col.str('status', 16),
          col.text('error'),
          col.bigint('next_check_at', true),
          col.str('lease_owner', 64, true),
          col.int('check_count', false, 0),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
        indices: [
          { name: 'uq_verification_assets_asset_id', columnNames: ['asset_id'], isUnique: true },
          { name: 'ix_verification_assets_group', columnNames: ['group_id', 'created_at'] },
          { name: 'ix_verification_assets_due', columnNames: ['status', 'next_check_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['verification_assets', 'verification_groups', 'verification_sessions', 'verification_applications']) {
      await queryRunner.dropTable(table);
    }
  }
}
