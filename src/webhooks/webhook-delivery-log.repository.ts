import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { readNow } from './webhook-delivery-rows';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEventType } from './webhook-endpoint.entity';

/** An attempt as the deliveries list shows it. */
export interface DeliveryRecord extends WebhookDeliveryEntity {
  publicEventId: string;
  type: WebhookEventType;
  taskId: string | null;
}

/** The attempts as clients, admins and the console read them: an endpoint's or a callback's list, a task's timeline, the dashboard's failures. */
@Injectable()
export class WebhookDeliveryLogRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** The endpoint's attempts, newest first, with their event's id, type and task. */
  listFor(endpointId: number, limit = 100): Promise<DeliveryRecord[]> {
    return this.records(`d.endpoint_id = ? ORDER BY d.id DESC LIMIT ${Math.floor(limit)}`, [endpointId]);
  }

  /** The callback attempts of an account (its callback row), newest first; of one task's events when `taskId` is given. */
  listForCallback(callbackRowId: number, taskId: string | undefined, limit = 100): Promise<DeliveryRecord[]> {
    const order = ` ORDER BY d.id DESC LIMIT ${Math.floor(limit)}`;
    if (taskId === undefined) return this.records(`d.endpoint_id = ?${order}`, [callbackRowId]);
    return this.records(`d.endpoint_id = ? AND ev.task_id = ?${order}`, [callbackRowId, taskId]);
  }

  /** One attempt by its row id (as its sender knows it), or null when it is gone (its endpoint was removed). */
  async recordOf(id: number): Promise<DeliveryRecord | null> {
    const [record] = await this.records('d.id = ?', [id]);
    return record ?? null;
  }

  /** Attempts with their event's id, type and task: `condition` (and order) on `d`, the attempt. */
  private async records(condition: string, params: unknown[]): Promise<DeliveryRecord[]> {
    const rows: Array<Record<string, unknown>> = await readNow(this.transactions, (manager) =>
      manager.query(
        'SELECT d.id, d.delivery_id, d.endpoint_id, d.target_url, d.event_id, d.attempt, d.state, d.due_at, d.lease_owner, d.status_code, d.error, d.attempted_at, ' +
          'd.next_attempt_at, d.delivered_at, d.created_at, ev.event_id AS public_event_id, ev.type, ev.task_id ' +
          `FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE ${condition}`,
        params,
      ),
    );
    const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return rows.map((row) => ({
      id: Number(row.id),
      deliveryId: String(row.delivery_id),
      endpointId: Number(row.endpoint_id),
      targetUrl: (row.target_url as string | null) ?? null,
      eventId: Number(row.event_id),
      attempt: Number(row.attempt),
      state: row.state as WebhookDeliveryEntity['state'],
      dueAt: num(row.due_at),
      leaseOwner: (row.lease_owner as string | null) ?? null,
      statusCode: num(row.status_code),
      error: (row.error as string | null) ?? null,
      attemptedAt: num(row.attempted_at),
      nextAttemptAt: num(row.next_attempt_at),
      deliveredAt: num(row.delivered_at),
      createdAt: Number(row.created_at),
      publicEventId: String(row.public_event_id),
      type: row.type as WebhookEventType,
      taskId: (row.task_id as string | null) ?? null,
    }));
  }

  /** Every attempt for one task's events, oldest first (the console's task timeline). */
  async attemptsForTask(
    taskId: string,
    limit = 200,
  ): Promise<
    Array<{
      type: WebhookEventType;
      attempt: number;
      state: WebhookDeliveryEntity['state'];
      statusCode: number | null;
      error: string | null;
      at: number;
    }>
  > {
    const rows: Array<Record<string, unknown>> = await readNow(this.transactions, (manager) =>
      manager.query(
        'SELECT ev.type, d.attempt, d.state, d.status_code, d.error, COALESCE(d.attempted_at, d.created_at) AS at ' +
          `FROM webhook_events ev JOIN webhook_deliveries d ON d.event_id = ev.id WHERE ev.task_id = ? ORDER BY d.id LIMIT ${Math.floor(limit)}`,
        [taskId],
      ),
    );
    return rows.map((row) => ({
      type: row.type as WebhookEventType,
      attempt: Number(row.attempt),
      state: row.state as WebhookDeliveryEntity['state'],
      statusCode: row.status_code === null || row.status_code === undefined ? null : Number(row.status_code),
      error: (row.error as string | null) ?? null,
      at: Number(row.at),
    }));
  }

  /** Attempts that failed since `from` (ms), over every endpoint (the admin dashboard). */
  async countFailedSince(from: number): Promise<number> {
    const rows: Array<{ n: number | string }> = await readNow(this.transactions, (manager) =>
      manager.query(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'failed' AND created_at >= ?`, [from]),
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Per endpoint: the latest attempt's error, for the admins' list of failing endpoints. */
  async lastErrors(endpointIds: number[]): Promise<Map<number, WebhookDeliveryEntity>> {
    if (endpointIds.length === 0) return new Map();
    const rows = await readNow(this.transactions, (manager) =>
      manager.find(WebhookDeliveryEntity, {
        where: { endpointId: In(endpointIds), state: 'failed' },
        order: { id: 'DESC' },
        take: endpointIds.length * 20,
      }),
    );
    const latest = new Map<number, WebhookDeliveryEntity>();
    for (const row of rows) if (!latest.has(row.endpointId)) latest.set(row.endpointId, row);
    return latest;
  }
}
