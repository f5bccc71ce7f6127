import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * The outbox of task ends is the task row itself: the terminal move (SUCCESS, FAILURE) sets
 * `end_event_due_at` in its own UPDATE, so it costs the task sync no extra statement, and the
 * webhook publisher turns due ends into events later (claimed with `end_event_owner` as a lease).
 */
export class TaskEndEvents1764300000700 implements MigrationInterface {
  name = 'TaskEndEvents1764300000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('tasks', [
      new TableColumn(col.bigint('end_event_due_at', true)),
      new TableColumn(col.str('end_event_owner', 64, true)),
    ]);
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_end_event_due', columnNames: ['end_event_due_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tasks', 'ix_tasks_end_event_due');
    await queryRunner.dropColumn('tasks', 'end_event_owner');
    await queryRunner.dropColumn('tasks', 'end_event_due_at');
  }
}
