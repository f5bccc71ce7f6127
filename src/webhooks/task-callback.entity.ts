import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/** A task's `callback_url` (WebhooksModule alone reads and writes it): written with the task's record, read when it ends. */
@Entity('task_callbacks')
export class TaskCallbackEntity {
  /** The task's row id (`tasks.id`). */
  @PrimaryColumn({ name: 'task_row_id', type: 'integer' })
  taskRowId: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;
}
