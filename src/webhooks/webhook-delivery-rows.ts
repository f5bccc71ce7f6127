import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from '../database/transaction-runner';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity';
import type { WebhookEndpointStatus, WebhookEventType } from './webhook-endpoint.entity';
import { newDeliveryId } from './webhook-ids';

/** What the webhook repositories share: a claimed attempt read back with its endpoint and event, a new attempt's row, a read outside a transaction. */

/** A claimed attempt with what sending it needs: its endpoint and its event. */
export interface ClaimedDelivery {
  id: number;
  deliveryId: string;
  attempt: number;
  leaseOwner: string;
  /** When the lease runs out (and another instance may take the attempt). */
  leaseUntil: number;
  endpointId: number;
  publicEndpointId: string;
  /** Where it is sent: the callback URL of its task, else its endpoint's URL. */
  url: string;
  /** The task's callback URL (the retry goes there too), or null for an endpoint's attempt. */
  targetUrl: string | null;
  secretEncrypted: string;
  endpointStatus: WebhookEndpointStatus;
  /** The endpoint's failure streak and last success when claimed: a success writes the endpoint only when they change. */
  endpointFailingSince: number | null;
  endpointLastSuccessAt: number | null;
  eventRowId: number;
  eventId: string;
  /** The task the event is about (null for a test event): its delivery's span carries it. */
  taskId: string | null;
  type: WebhookEventType;
  payload: string;
}

/** A new attempt, due at `dueAt` (leased to `leaseOwner` when given). */
export function pendingAttempt(
  endpointId: number,
  eventId: number,
  attempt: number,
  dueAt: number,
  now: number,
  leaseOwner: string | null = null,
  targetUrl: string | null = null,
): Omit<WebhookDeliveryEntity, 'id'> {
  return {
    deliveryId: newDeliveryId(),
    endpointId,
    targetUrl,
    eventId,
    attempt,
    state: 'pending',
    dueAt,
    leaseOwner,
    statusCode: null,
    error: null,
    attemptedAt: null,
    nextAttemptAt: dueAt,
    deliveredAt: null,
    createdAt: now,
  };
}

const CLAIM_COLUMNS =
  'd.id AS id, d.delivery_id AS delivery_id, d.attempt AS attempt, d.lease_owner AS lease_owner, d.due_at AS lease_until, d.endpoint_id AS endpoint_id, ' +
  'e.endpoint_id AS public_endpoint_id, COALESCE(d.target_url, e.url) AS url, d.target_url AS target_url, e.secret_encrypted AS secret_encrypted, e.status AS endpoint_status, ' +
  'e.failing_since AS failing_since, e.last_success_at AS last_success_at, ' +
  'ev.id AS event_row_id, ev.event_id AS event_id, ev.task_id AS task_id, ev.type AS type, ev.payload AS payload';

/** Attempts with their endpoint and event, those of `ids` still leased to `owner`. */
export async function claimedRows(manager: EntityManager, owner: string, ids: number[]): Promise<ClaimedDelivery[]> {
  const rows: Array<Record<string, unknown>> = await manager.query(
    `SELECT ${CLAIM_COLUMNS} FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events ev ON ev.id = d.event_id ` +
      `WHERE d.id IN (${ids.map(() => '?').join(', ')}) AND d.lease_owner = ? AND d.state = 'pending'`,
    [...ids, owner],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    deliveryId: String(row.delivery_id),
    attempt: Number(row.attempt),
    leaseOwner: String(row.lease_owner),
    leaseUntil: Number(row.lease_until),
    endpointId: Number(row.endpoint_id),
    publicEndpointId: String(row.public_endpoint_id),
    url: String(row.url),
    targetUrl: (row.target_url as string | null) ?? null,
    secretEncrypted: String(row.secret_encrypted),
    endpointStatus: row.endpoint_status as WebhookEndpointStatus,
    endpointFailingSince: row.failing_since === null ? null : Number(row.failing_since),
    endpointLastSuccessAt: row.last_success_at === null ? null : Number(row.last_success_at),
    eventRowId: Number(row.event_row_id),
    eventId: String(row.event_id),
    taskId: (row.task_id as string | null) ?? null,
    type: row.type as WebhookEventType,
    payload: String(row.payload),
  }));
}

export function readNow<T>(transactions: TransactionRunner, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  // Reads need no transaction: the rows are leased to us.
  return transactions.runStatement(work);
}
