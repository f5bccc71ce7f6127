import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * How many times a task the provider accepted and then failed for its own reason was submitted again
 * on another channel (TASK_PROVIDER_RETRIES); with no provider id, a task it counts is being resubmitted.
 */
export class TaskProviderRetries1765100000100 implements MigrationInterface {
  name = 'TaskProviderRetries1765100000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tasks', new TableColumn(col.int('provider_retries', false, 0)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tasks', 'provider_retries');
  }
}
