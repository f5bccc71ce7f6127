import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';
import { identifierColumn } from './1764000000100-identifier-collation';

/** Webhooks: an account's endpoints, the events of its tasks' ends (the outbox), and each delivery attempt. */
export class Webhooks1764300000130 implements MigrationInterface {
  name = 'Webhooks1764300000130';

  async up(queryRunner: QueryRunner): Promise<void> {
    const id = await identifierColumn(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          col.id(),
          id('endpoint_id', 64),
          col.int('user_id'),
          col.text('url', false),
          col.str('events', 255),
          col.text('secret_encrypted', false),
          col.str('status', 16),
          col.bigint('failing_since', true),
          col.bigint('disabled_at', true),
          col.bigint('last_success_at', true),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
        indices: [
          { name: 'uq_webhook_endpoints_endpoint_id', columnNames: ['endpoint_id'], isUnique: true },
          { name: 'ix_webhook_endpoints_user', columnNames: ['user_id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_events',
        columns: [
          col.id(),
          id('event_id', 64),
          col.int('user_id'),
          col.str('type', 32),
          { ...id('task_id', 64), isNullable: true },
          col.longText(queryRunner, 'payload', false),
          col.bigint('created_at'),
        ],
        indices: [{ name: 'uq_webhook_events_event_id', columnNames: ['event_id'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          col.id(),
          id('delivery_id', 64),
          col.int('endpoint_id'),
          col.int('event_id'),
          col.int('attempt'),
          col.str('state', 16),
          col.bigint('due_at', true),
          { ...id('lease_owner', 64), isNullable: true },
          col.int('status_code', true),
          col.str('error', 255, true),
          col.bigint('attempted_at', true),
          col.bigint('next_attempt_at', true),
          col.bigint('delivered_at', true),
          col.bigint('created_at'),
        ],
        indices: [
          { name: 'uq_webhook_deliveries_delivery_id', columnNames: ['delivery_id'], isUnique: true },
          // endpoint_id too, so a claim skips the backlog of a busy endpoint within the index.
          { name: 'ix_webhook_deliveries_due', columnNames: ['state', 'due_at', 'endpoint_id'] },
          { name: 'ix_webhook_deliveries_endpoint', columnNames: ['endpoint_id', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['webhook_deliveries', 'webhook_events', 'webhook_endpoints']) await queryRunner.dropTable(table);
  }
}
