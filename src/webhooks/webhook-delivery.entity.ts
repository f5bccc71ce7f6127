import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/**
 * `pending`: due at `due_at` (a claimed one is due again when its lease, `due_at`, runs out);
 * `succeeded`: a 2xx; `failed`: anything else (the next attempt, if any, is a new row);
 * `cancelled`: its endpoint was disabled before it was tried.
 */
export type WebhookDeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** One attempt to deliver one event to one endpoint; a retry is the next row, with `attempt` + 1. */
@Entity('webhook_deliveries')
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** `whd_` + 24 random characters. */
  @Column({ name: 'delivery_id', type: 'varchar', length: 64, unique: true })
  deliveryId: string;

  /** webhook_endpoints.id */
  @Column({ name: 'endpoint_id', type: 'integer' })
  endpointId: number;

  /** webhook_events.id */
  @Column({ name: 'event_id', type: 'integer' })
  eventId: number;

  /** Where a callback's attempt goes (the task's `callback_url`); null: to its endpoint's `url`. */
  @Column({ name: 'target_url', type: 'text', nullable: true })
  targetUrl: string | null;

  /** 1 for the first try of an event at an endpoint. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'varchar', length: 16 })
  state: WebhookDeliveryState;

  @Column({ name: 'due_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  dueAt: number | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  error: string | null;

  @Column({ name: 'attempted_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  attemptedAt: number | null;

  /** When this event is tried next at this endpoint (a failed attempt's retry, or this pending one). */
  @Column({ name: 'next_attempt_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  nextAttemptAt: number | null;

  @Column({ name: 'delivered_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  deliveredAt: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;
}
