import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** How many gateways a task's submit had passed through before this one (X-Gateway-Hops), sent on upstream as one more. */
export class TaskGatewayHops1764500000100 implements MigrationInterface {
  name = 'TaskGatewayHops1764500000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tasks', new TableColumn(col.int('gateway_hops', false, 0)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tasks', 'gateway_hops');
  }
}
