import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * The client's request as the family schemas read it, kept on a task whose model has several routes
 * (a Kling model served by Kling and on fal): a provider retry on another platform builds that
 * platform's request from it. Null for every other task.
 */
export class TaskRouteRequest1765200000100 implements MigrationInterface {
  name = 'TaskRouteRequest1765200000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tasks', new TableColumn(col.text('route_request', true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tasks', 'route_request');
  }
}
