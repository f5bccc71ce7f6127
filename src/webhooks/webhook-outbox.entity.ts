import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/**
 * A task end not yet published as a webhook event (WebhooksModule alone reads and writes it):
 * written with the task's move to SUCCESS or FAILURE, deleted in the transaction that writes the event.
 */
@Entity('webhook_outbox')
export class WebhookOutboxEntity {
  /** The task's row id (`tasks.id`): a task ends once. */
  @PrimaryColumn({ name: 'task_row_id', type: 'integer' })
  taskRowId: number;

  /** When the end is due to be published (ms epoch); moved to the lease's end while claimed. */
  @Column({ name: 'due_at', type: 'bigint', transformer: bigintColumn })
  dueAt: number;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;
}
