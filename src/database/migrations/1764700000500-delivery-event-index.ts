import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Finds a task's delivery attempts by their event: TASK_RETENTION asks, for each task it may delete,
 * whether one of its attempts is still pending (and deletes them by event with the task).
 */
export class DeliveryEventIndex1764700000500 implements MigrationInterface {
  name = 'DeliveryEventIndex1764700000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({ name: 'ix_webhook_deliveries_event', columnNames: ['event_id', 'state'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'ix_webhook_deliveries_event');
  }
}
