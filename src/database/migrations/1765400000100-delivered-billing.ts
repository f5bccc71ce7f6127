import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * Billing on what was delivered: what a task keeps at submit to settle with (`price_basis`: its
 * model's prices and its group's ratio then, what was asked), what it was settled at once it ended
 * (`usage`, with `final_quota` and `usage_seconds` beside it for sums), what it cost the operator
 * (`provider_cost_micro_usd`, millionths of a dollar: sums stay exact), when it was settled, and a
 * late completion the provider reported after the gateway had given up (`late_completion`).
 */
export class DeliveredBilling1765400000100 implements MigrationInterface {
  name = 'DeliveredBilling1765400000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('tasks', [
      new TableColumn(col.text('price_basis', true)),
      new TableColumn(col.text('usage', true)),
      new TableColumn(col.bigint('final_quota', true)),
      new TableColumn(col.int('usage_seconds', true)),
      new TableColumn(col.bigint('provider_cost_micro_usd', true)),
      new TableColumn(col.bigint('settled_at', true)),
      new TableColumn(col.text('late_completion', true)),
    ]);
    // A customer's usage report reads their ended tasks by when they ended (ix_tasks_finish serves the operator's).
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_user_finish_time', columnNames: ['user_id', 'finish_time'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tasks', 'ix_tasks_user_finish_time');
    for (const column of [
      'late_completion',
      'settled_at',
      'provider_cost_micro_usd',
      'usage_seconds',
      'final_quota',
      'usage',
      'price_basis',
    ]) {
      await queryRunner.dropColumn('tasks', column);
    }
  }
}
