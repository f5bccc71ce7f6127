import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { col } from './1763700000000-initial-schema';
import { identifierColumn } from './1764000000100-identifier-collation';

/** The archive's columns on `tasks` and where they go in `video_archives`. */
const ARCHIVE_COLUMNS: Array<[task: string, archive: string]> = [
  ['archive_status', 'status'],
  ['archive_due_at', 'due_at'],
  ['archive_owner', 'lease_owner'],
  ['archive_failures', 'failures'],
  ['archive_size', 'size'],
  ['thumbnail_size', 'thumbnail_size'],
  ['archived_at', 'archived_at'],
  ['archive_error', 'error'],
];
/** The outbox's columns on `tasks` and where they go in `webhook_outbox`. */
const OUTBOX_COLUMNS: Array<[task: string, outbox: string]> = [
  ['end_event_due_at', 'due_at'],
  ['end_event_owner', 'lease_owner'],
];

const taskRowKey = () => ({ ...col.int('task_row_id'), isPrimary: true });

/**
 * Tables with one owner: the video store's archive state moves from `tasks` to `video_archives`
 * (StorageModule), the webhook outbox's marks to `webhook_outbox` (WebhooksModule). Existing rows'
 * state is moved, then the old columns (and their indexes) are dropped from `tasks`.
 */
export class OwnTables1764600000300 implements MigrationInterface {
  name = 'OwnTables1764600000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Lease owners compare byte for byte, as tasks.lease_owner does (IdentifierCollation1764000000100).
    const identifier = await identifierColumn(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'video_archives',
        columns: [
          taskRowKey(),
          col.str('status', 16, true),
          col.bigint('due_at', true),
          identifier('lease_owner', 64, true),
          col.int('failures', false, 0),
          col.bigint('size', true),
          col.bigint('thumbnail_size', true),
          col.bigint('archived_at', true),
          col.str('error', 255, true),
        ],
        indices: [{ name: 'ix_video_archives_due', columnNames: ['due_at'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_outbox',
        columns: [taskRowKey(), col.bigint('due_at'), identifier('lease_owner', 64, true)],
        indices: [{ name: 'ix_webhook_outbox_due', columnNames: ['due_at'] }],
      }),
    );
    // Every task with archive state (a deleted task's forgotten copy keeps its time and error, for its timeline).
    await queryRunner.query(
      `INSERT INTO video_archives (task_row_id, ${ARCHIVE_COLUMNS.map(([, to]) => to).join(', ')}) ` +
        `SELECT id, ${ARCHIVE_COLUMNS.map(([from]) => from).join(', ')} FROM tasks ` +
        'WHERE archive_status IS NOT NULL OR archived_at IS NOT NULL OR archive_error IS NOT NULL OR archive_failures > 0',
    );
    await queryRunner.query(
      `INSERT INTO webhook_outbox (task_row_id, ${OUTBOX_COLUMNS.map(([, to]) => to).join(', ')}) ` +
        `SELECT id, ${OUTBOX_COLUMNS.map(([from]) => from).join(', ')} FROM tasks WHERE end_event_due_at IS NOT NULL`,
    );
    await queryRunner.dropIndex('tasks', 'ix_tasks_archive_due');
    await queryRunner.dropIndex('tasks', 'ix_tasks_end_event_due');
    // One call: SQLite rebuilds the table once (keeping its other indexes).
    await queryRunner.dropColumns(
      'tasks',
      [...ARCHIVE_COLUMNS, ...OUTBOX_COLUMNS].map(([from]) => from),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('tasks', [
      new TableColumn(col.str('archive_status', 16, true)),
      new TableColumn(col.bigint('archive_due_at', true)),
      new TableColumn(col.str('archive_owner', 64, true)),
      new TableColumn(col.int('archive_failures', false, 0)),
      new TableColumn(col.bigint('archive_size', true)),
      new TableColumn(col.bigint('archived_at', true)),
      new TableColumn(col.bigint('thumbnail_size', true)),
      new TableColumn(col.str('archive_error', 255, true)),
      new TableColumn(col.bigint('end_event_due_at', true)),
      new TableColumn(col.str('end_event_owner', 64, true)),
    ]);
    for (const [from, to] of ARCHIVE_COLUMNS) {
      await queryRunner.query(
        `UPDATE tasks SET ${from} = (SELECT a.${to} FROM video_archives a WHERE a.task_row_id = tasks.id) WHERE id IN (SELECT task_row_id FROM video_archives)`,
      );
    }
    for (const [from, to] of OUTBOX_COLUMNS) {
      await queryRunner.query(
        `UPDATE tasks SET ${from} = (SELECT o.${to} FROM webhook_outbox o WHERE o.task_row_id = tasks.id) WHERE id IN (SELECT task_row_id FROM webhook_outbox)`,
      );
    }
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_archive_due', columnNames: ['archive_due_at'] }));
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_end_event_due', columnNames: ['end_event_due_at'] }));
    await queryRunner.dropTable('webhook_outbox');
    await queryRunner.dropTable('video_archives');
  }
}
