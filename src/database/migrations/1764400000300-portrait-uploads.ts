import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * Portraits uploaded as files in the console, kept until their signed link expires: the
 * verification provider fetches them from the gateway like any portrait URL. In the database so
 * every instance serves them, whatever VIDEO_STORE is.
 */
export class PortraitUploads1764400000300 implements MigrationInterface {
  name = 'PortraitUploads1764400000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'portrait_uploads',
        columns: [
          col.id(),
          col.str('upload_id', 64),
          col.int('user_id'),
          col.str('content_type', 32),
          col.int('size'),
          // Up to 16 MB on MySQL (MEDIUMBLOB); SQLite's BLOB and PostgreSQL's BYTEA have no such bound.
          col.blob(queryRunner, 'bytes'),
          col.bigint('created_at'),
          col.bigint('expires_at'),
        ],
        indices: [
          { name: 'uq_portrait_uploads_upload_id', columnNames: ['upload_id'], isUnique: true },
          { name: 'ix_portrait_uploads_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('portrait_uploads');
  }
}
