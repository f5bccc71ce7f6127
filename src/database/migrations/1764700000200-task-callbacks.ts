import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * Per-request callbacks (WebhooksModule): `task_callbacks` holds a task's `callback_url`; the
 * account's callback secret is a `webhook_endpoints` row of kind `callback` (sealed like every
 * endpoint secret, never listed as an endpoint), and an attempt sent to a callback URL names it in
 * `webhook_deliveries.target_url` (null: its endpoint's own URL).
 */
export class TaskCallbacks1764700000200 implements MigrationInterface {
  name = 'TaskCallbacks1764700000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('webhook_endpoints', new TableColumn({ ...col.str('kind', 16), default: "'endpoint'" }));
    await queryRunner.addColumn('webhook_deliveries', new TableColumn(col.text('target_url', true)));
    await queryRunner.createTable(
      new Table({
        name: 'task_callbacks',
        columns: [{ ...col.int('task_row_id'), isPrimary: true }, col.int('user_id'), col.text('url', false), col.bigint('created_at')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('task_callbacks');
    await queryRunner.dropColumn('webhook_deliveries', 'target_url');
    await queryRunner.dropColumn('webhook_endpoints', 'kind');
  }
}
