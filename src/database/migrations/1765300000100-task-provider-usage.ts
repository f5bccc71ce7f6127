import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { jsonFieldSql } from '../json-fields';
import { col } from './1763700000000-initial-schema';

/**
 * What a provider reports of its own cost, kept per attempt of a task and the channel that made it
 * (`task_provider_usage`): a task retried on another channel keeps the first channel's figure there,
 * and a report read from one channel is never credited to the channel the task moved to. Earlier
 * reports (`tasks.provider_usage`, the last one only) are copied in as the attempt the task was on.
 */
export class TaskProviderUsage1765300000100 implements MigrationInterface {
  name = 'TaskProviderUsage1765300000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'task_provider_usage',
        columns: [
          col.id(),
          col.int('task_row_id'),
          // The task's provider retries when the attempt ran: 0 for the first provider, 1 for the next.
          col.int('attempt'),
          col.int('channel_id'),
          col.str('unit', 32),
          col.double('amount'),
          col.bigint('reported_at'),
        ],
        indices: [{ name: 'ux_task_provider_usage_attempt', columnNames: ['task_row_id', 'attempt', 'channel_id'], isUnique: true }],
      }),
    );
    const manager = queryRunner.manager;
    const unit = jsonFieldSql(manager, 'provider_usage', 'unit', 'text');
    const amount = jsonFieldSql(manager, 'provider_usage', 'amount', 'number');
    await queryRunner.query(
      `INSERT INTO task_provider_usage (task_row_id, attempt, channel_id, unit, amount, reported_at) ` +
        `SELECT id, provider_retries, channel_id, ${unit}, ${amount}, updated_at FROM tasks ` +
        `WHERE provider_usage IS NOT NULL AND channel_id IS NOT NULL AND ${unit} IS NOT NULL AND ${amount} IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('task_provider_usage');
  }
}
