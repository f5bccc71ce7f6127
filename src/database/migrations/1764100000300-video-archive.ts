import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * The gateway's own copy of each finished video: archive state on the task (due time and lease of
 * the archiving job, the stored object's size, the thumbnail's). Tasks that finished before this
 * migration are due at once, so their videos are copied while the provider still has them.
 */
export class VideoArchive1764100000300 implements MigrationInterface {
  name = 'VideoArchive1764100000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('tasks', [
      new TableColumn(col.str('archive_status', 16, true)),
      new TableColumn(col.bigint('archive_due_at', true)),
      new TableColumn(col.str('archive_owner', 64, true)),
      new TableColumn(col.int('archive_failures', false, 0)),
      new TableColumn(col.bigint('archive_size', true)),
      new TableColumn(col.bigint('archived_at', true)),
      new TableColumn(col.bigint('thumbnail_size', true)),
      new TableColumn(col.str('archive_error', 255, true)),
    ]);
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_archive_due', columnNames: ['archive_due_at'] }));
    await queryRunner.query(
      `UPDATE tasks SET archive_status = 'pending', archive_due_at = 0 WHERE status = 'SUCCESS' AND deleted_at IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('tasks', 'ix_tasks_archive_due');
    for (const name of [
      'archive_error',
      'thumbnail_size',
      'archived_at',
      'archive_size',
      'archive_failures',
      'archive_owner',
      'archive_due_at',
      'archive_status',
    ]) {
      await queryRunner.dropColumn('tasks', name);
    }
  }
}
