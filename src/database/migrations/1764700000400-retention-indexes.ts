import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Indexes for deleting old rows without scanning whole tables: TASK_RETENTION picks ended tasks by
 * their end time, housekeeping picks webhook delivery attempts by their creation time.
 */
export class RetentionIndexes1764700000400 implements MigrationInterface {
  name = 'RetentionIndexes1764700000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_finish', columnNames: ['finish_time'] }));
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({ name: 'ix_webhook_deliveries_created', columnNames: ['created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_created');
    await queryRunner.dropIndex('tasks', 'ix_tasks_finish');
  }
}
