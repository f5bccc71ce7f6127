import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task completes for its customer once its video is stored and settled (settled_at set). Tasks
 * that succeeded before settlement existed were charged as asked and completed then: they count as
 * settled at their end, so no answer shows them in progress again.
 */
export class SettledBefore1765400000200 implements MigrationInterface {
  name = 'SettledBefore1765400000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "UPDATE tasks SET settled_at = COALESCE(finish_time, updated_at, 0) WHERE status = 'SUCCESS' AND settled_at IS NULL",
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: the column goes with the migration before this one.
  }
}
