import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { col } from './1763700000000-initial-schema';

const BACKFILL_BATCH = 500;

/**
 * A task's timeline for the console: `task_events` (one row per state change, written with it),
 * poll counts on the task (aggregated, never a row per poll), and the prompt as a column of its own
 * so the task lists can search it; indexes for the dashboard and a task's webhook attempts.
 */
export class TaskEvents1764400000100 implements MigrationInterface {
  name = 'TaskEvents1764400000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'task_events',
        columns: [
          col.id(),
          col.int('task_row_id'),
          col.str('kind', 16),
          col.str('status', 16, true),
          col.int('progress', true),
          col.str('detail', 255, true),
          col.bigint('at'),
        ],
        indices: [{ name: 'ix_task_events_task', columnNames: ['task_row_id', 'id'] }],
      }),
    );
    await queryRunner.addColumns('tasks', [
      new TableColumn(col.text('prompt')),
      new TableColumn(col.int('poll_count', false, 0)),
      new TableColumn(col.bigint('first_poll_at', true)),
      new TableColumn(col.bigint('last_poll_at', true)),
    ]);
    // The dashboard counts tasks by creation time over every account.
    await queryRunner.createIndex('tasks', new TableIndex({ name: 'ix_tasks_created', columnNames: ['created_at'] }));
    // A task's webhook attempts, for its timeline.
    await queryRunner.createIndex('webhook_events', new TableIndex({ name: 'ix_webhook_events_task', columnNames: ['task_id'] }));
    await backfillPrompts(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_events', 'ix_webhook_events_task');
    await queryRunner.dropIndex('tasks', 'ix_tasks_created');
    for (const name of ['last_poll_at', 'first_poll_at', 'poll_count', 'prompt']) await queryRunner.dropColumn('tasks', name);
    await queryRunner.dropTable('task_events');
  }
}

/** Earlier tasks keep their prompt only inside the JSON columns: copy it out, a batch at a time. */
async function backfillPrompts(queryRunner: QueryRunner): Promise<void> {
  for (let afterId = 0; ;) {
    const rows: Array<{ id: number | string; request: string | null; properties: string | null }> = await queryRunner.query(
      `SELECT id, request, properties FROM tasks WHERE id > ? ORDER BY id LIMIT ${BACKFILL_BATCH}`,
      [afterId],
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      const prompt = promptOf(parse(row.properties)?.input) ?? promptOf(parse(row.request)?.prompt);
      if (prompt) await queryRunner.query('UPDATE tasks SET prompt = ? WHERE id = ?', [prompt, row.id]);
    }
    afterId = Number(rows[rows.length - 1].id);
  }
}

const promptOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function parse(text: string | null): Record<string, unknown> | null {
  try {
    const value = text ? JSON.parse(text) : null;
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}
