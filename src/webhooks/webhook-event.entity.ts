import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';
import type { WebhookEventType } from './webhook-endpoint.entity';

/** One event, written by the publisher from a task's end (marked on the task row by its terminal move); its payload is the exact body every attempt signs and sends. */
@Entity('webhook_events')
export class WebhookEventEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** `evt_` + 24 random characters: the `webhook-id` header, the same on every retry. */
  @Column({ name: 'event_id', type: 'varchar', length: 64, unique: true })
  eventId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 32 })
  type: WebhookEventType;

  @Column({ name: 'task_id', type: 'varchar', length: 64, nullable: true })
  taskId: string | null;

  /** The JSON body, as sent. */
  @Column({ type: 'text' })
  payload: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;
}
