import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/**
 * `created` (recorded, charged), `attempt` (a channel that failed the submit), `submitted` (the provider
 * accepted it), `status` (a move), `progress` (a quarter reached), `archived`.
 */
export type TaskEventKind = 'created' | 'attempt' | 'submitted' | 'status' | 'progress' | 'archived';

/** One state change of a task, written in the transaction that makes it (polls are counted on the task instead). */
@Entity('task_events')
export class TaskEventEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** The task's row id (`tasks.id`, not the public `task_id`). */
  @Column({ name: 'task_row_id', type: 'integer' })
  taskRowId: number;

  @Column({ type: 'varchar', length: 16 })
  kind: TaskEventKind;

  @Column({ type: 'varchar', length: 16, nullable: true })
  status: string | null;

  @Column({ type: 'integer', nullable: true })
  progress: number | null;

  /** Ours, never the provider's words (a failure reason is already mapped). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  detail: string | null;

  /** ms epoch. */
  @Column({ type: 'bigint', transformer: bigintColumn })
  at: number;
}
