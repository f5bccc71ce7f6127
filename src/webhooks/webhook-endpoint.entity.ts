import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

export type WebhookEndpointStatus = 'enabled' | 'disabled';

/**
 * `endpoint`: a URL the account registered; `callback`: the account's callback secret (one row at
 * most, never listed as an endpoint, never disabled), whose attempts go to each task's `callback_url`.
 */
export type WebhookEndpointKind = 'endpoint' | 'callback';

/** Event types an endpoint may subscribe to (`webhook.test` goes to the endpoint tested, whatever it subscribes to). */
export const WEBHOOK_EVENT_TYPES = ['video.completed', 'video.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.test';

/** Kept as `a,b` text: portable, and short (the list is fixed). */
const eventList = {
  to: (value: string[] | undefined) => (value === undefined ? value : value.join(',')),
  from: (value: string | null) => (value ? value.split(',') : []),
};

/** A URL of an account that the gateway tells about its tasks' ends. */
@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Public id, `we_` + 24 random characters. */
  @Column({ name: 'endpoint_id', type: 'varchar', length: 64, unique: true })
  endpointId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'varchar', length: 255, transformer: eventList })
  events: string[];

  /** The signing secret, AES-256-GCM with a key derived from the server secret (WebhookSecretBox). */
  @Column({ name: 'secret_encrypted', type: 'text' })
  secretEncrypted: string;

  @Column({ type: 'varchar', length: 16 })
  status: WebhookEndpointStatus;

  @Column({ type: 'varchar', length: 16, default: 'endpoint' })
  kind: WebhookEndpointKind;

  /** The first failed attempt since the last success; 3 days later the endpoint is disabled. */
  @Column({ name: 'failing_since', type: 'bigint', nullable: true, transformer: bigintColumn })
  failingSince: number | null;

  @Column({ name: 'disabled_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  disabledAt: number | null;

  @Column({ name: 'last_success_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  lastSuccessAt: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
