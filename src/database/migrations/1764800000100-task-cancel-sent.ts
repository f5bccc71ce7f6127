import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * When a client's cancel was sent to the task's provider: kept across a crash of the cancel, so the
 * sync that takes the task over reads the provider's answer (cancelled, or the task gone) as that cancel.
 */
export class TaskCancelSent1764800000100 implements MigrationInterface {
  name = 'TaskCancelSent1764800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tasks', new TableColumn(col.bigint('cancel_sent_at', true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tasks', 'cancel_sent_at');
  }
}
