import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * The hosted platforms' core: what a provider reports of its own cost of a task (`tasks.provider_usage`,
 * JSON `{unit, amount}`), and when a finished video's link dies at its provider
 * (`video_archives.expires_at`), so short-lived outputs are archived first and, past it, known to be gone.
 */
export class ProviderUsageOutputExpiry1765000000100 implements MigrationInterface {
  name = 'ProviderUsageOutputExpiry1765000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tasks', new TableColumn(col.text('provider_usage', true)));
    await queryRunner.addColumn('video_archives', new TableColumn(col.bigint('expires_at', true)));
    // The archiving job's first claim: pending archives of short-lived outputs, soonest to expire first.
    await queryRunner.createIndex(
      'video_archives',
      new TableIndex({ name: 'ix_video_archives_expiring', columnNames: ['status', 'expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('video_archives', 'ix_video_archives_expiring');
    await queryRunner.dropColumn('video_archives', 'expires_at');
    await queryRunner.dropColumn('tasks', 'provider_usage');
  }
}
