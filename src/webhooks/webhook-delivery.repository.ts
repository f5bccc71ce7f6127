import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, LessThan, Not } from 'typeorm';
import { caseById } from '../database/case-by-id';
import { deleteExpiredBatch } from '../database/delete-expired-batch';
import { TransactionRunner } from '../database/transaction-runner';
import { claimLease } from '../jobs/lease-claim';
import type { RetentionHold } from '../tasks/task.repository';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity, WebhookEndpointStatus, WebhookEventType } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';
import { newDeliveryId, newEventId } from './webhook-ids';
import { eventBody } from './webhook-event.view';

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
  type: WebhookEventType;
  payload: string;
}

/** An attempt as the deliveries list shows it. */
export interface DeliveryRecord extends WebhookDeliveryEntity {
  publicEventId: string;
  type: WebhookEventType;
  taskId: string | null;
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** A success writes its endpoint only when it ends a failure streak or the last success is a minute old: one statement per delivery otherwise. */
export const successTouchesEndpoint = (
  delivery: Pick<ClaimedDelivery, 'endpointFailingSince' | 'endpointLastSuccessAt'>,
  now: number,
): boolean => delivery.endpointFailingSince !== null || (delivery.endpointLastSuccessAt ?? 0) < now - 60_000;

/** A 2xx to record: the attempt, the lease it was sent under, and its answer. */
export interface DeliverySuccess {
  id: number;
  leaseOwner: string;
  statusCode: number;
  at: number;
}

/** An event to write, with the endpoints it goes to. */
export interface NewEvent {
  userId: number;
  type: WebhookEventType;
  taskId: string | null;
  data: unknown;
  endpointIds: number[];
  /** Callback attempts: the account's callback row and the task's `callback_url`. */
  callbacks?: Array<{ endpointId: number; url: string }>;
}

/** How a failed attempt left its endpoint. */
export type FailureOutcome = 'retry' | 'given_up' | 'endpoint_disabled' | 'lost';

/** A new attempt, due at `dueAt` (leased to `leaseOwner` when given). */
function pendingAttempt(
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
  'ev.id AS event_row_id, ev.event_id AS event_id, ev.type AS type, ev.payload AS payload';

/**
 * The outbox and the delivery queue. Every attempt is a row; a pending row is due at `due_at`,
 * and claiming moves `due_at` to the end of the lease, so a crashed instance's attempts come back
 * by themselves. Results are written guarded by the lease owner, like a compare-and-set.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * Writes events and a first attempt per target endpoint, inside the caller's transaction: three
   * statements however many events (the publisher writes a batch of task ends at once).
   */
  async enqueueEvents(manager: EntityManager, events: NewEvent[], now: number): Promise<number> {
    if (events.length === 0) return 0;
    const rows = events.map((event) => {
      const eventId = newEventId();
      return {
        eventId,
        userId: event.userId,
        type: event.type,
        taskId: event.taskId,
        payload: eventBody(eventId, event.type, now, event.data),
        createdAt: now,
      };
    });
    await manager.createQueryBuilder().insert().into(WebhookEventEntity).values(rows).updateEntity(false).execute();
    const saved = await manager.find(WebhookEventEntity, {
      where: { eventId: In(rows.map((row) => row.eventId)) },
      select: { id: true, eventId: true },
    });
    const rowIdOf = new Map(saved.map((event) => [event.eventId, event.id]));
    const attempts = events.flatMap((event, index) => {
      const eventRowId = rowIdOf.get(rows[index].eventId)!;
      return [
        ...event.endpointIds.map((endpointId) => pendingAttempt(endpointId, eventRowId, 1, now, now)),
        ...(event.callbacks ?? []).map(({ endpointId, url }) => pendingAttempt(endpointId, eventRowId, 1, now, now, null, url)),
      ];
    });
    if (attempts.length)
      await manager.createQueryBuilder().insert().into(WebhookDeliveryEntity).values(attempts).updateEntity(false).execute();
    return attempts.length;
  }

  /**
   * Claims up to `limit` due attempts for `owner` until `leaseUntil`, at most `room(endpoint)` per
   * endpoint and none of the endpoints in `full` (their slots are taken on this instance), so a
   * hanging endpoint's backlog never crowds out the others' work.
   */
  async claimDue(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    full: number[],
    room: (endpointId: number) => number,
  ): Promise<ClaimedDelivery[]> {
    const choose = (candidates: Array<Record<string, unknown>>): number[] => {
      const taken = new Map<number, number>();
      const picked: number[] = [];
      for (const row of candidates) {
        const endpointId = Number(row.endpoint_id);
        const count = taken.get(endpointId) ?? 0;
        if (picked.length >= limit || count >= room(endpointId)) continue;
        taken.set(endpointId, count + 1);
        picked.push(Number(row.id));
      }
      return picked;
    };
    return claimLease(
      this.transactions,
      {
        table: 'webhook_deliveries',
        claimable: { sql: "state = 'pending' AND due_at <= ?", params: [now] },
        pickOnly: full.length ? { sql: `endpoint_id NOT IN (${full.map(() => '?').join(', ')})`, params: full } : undefined,
        order: 'due_at',
        limit: limit * 4,
        columns: ['endpoint_id'],
        choose,
        lease: { sql: 'lease_owner = ?, due_at = ?', params: [owner, leaseUntil] },
      },
      // Read back in the same unit of work: what this claim won, with its endpoint and event.
      (manager, picked) => this.claimedRows(manager, owner, picked),
    );
  }

  /** Attempts with their endpoint and event, those of `ids` still leased to `owner`. */
  private async claimedRows(manager: EntityManager, owner: string, ids: number[]): Promise<ClaimedDelivery[]> {
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
      type: row.type as WebhookEventType,
      payload: String(row.payload),
    }));
  }

  private readNow<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    // Reads need no transaction: the rows are leased to us.
    return this.transactions.runStatement(work);
  }

  /** One new attempt leased to `owner` until `leaseUntil` at once (a test event, sent while the request waits): no round claims it meanwhile. */
  async enqueueLeased(
    event: { userId: number; type: WebhookEventType; data: unknown },
    endpointId: number,
    owner: string,
    now: number,
    leaseUntil: number,
  ): Promise<ClaimedDelivery> {
    return this.transactions.run(async (manager) => {
      const eventId = newEventId();
      const saved = await manager.save(
        manager.create(WebhookEventEntity, {
          eventId,
          userId: event.userId,
          type: event.type,
          taskId: null,
          payload: eventBody(eventId, event.type, now, event.data),
          createdAt: now,
        }),
      );
      const attempt = await manager.save(
        manager.create(WebhookDeliveryEntity, { ...pendingAttempt(endpointId, saved.id, 1, leaseUntil, now, owner), nextAttemptAt: now }),
      );
      const [claimed] = await this.claimedRows(manager, owner, [attempt.id]);
      return claimed;
    });
  }

  /** A 2xx: the attempt succeeded, and the endpoint's failure streak (if any) ends. */
  async recordSuccess(delivery: ClaimedDelivery, statusCode: number, now: number): Promise<boolean> {
    const attempt = (manager: EntityManager) =>
      manager.update(
        WebhookDeliveryEntity,
        { id: delivery.id, leaseOwner: delivery.leaseOwner, state: 'pending' },
        {
          state: 'succeeded',
          statusCode,
          error: null,
          attemptedAt: now,
          deliveredAt: now,
          nextAttemptAt: null,
          dueAt: null,
          leaseOwner: null,
        },
      );
    if (!successTouchesEndpoint(delivery, now)) return ((await this.transactions.runStatement(attempt)).affected ?? 0) > 0;
    return this.transactions.run(async (manager) => {
      if (((await attempt(manager)).affected ?? 0) === 0) return false;
      await manager.update(WebhookEndpointEntity, { id: delivery.endpointId }, { failingSince: null, lastSuccessAt: now });
      return true;
    });
  }

  /**
   * Many 2xx at once, in one statement: each attempt succeeded if it is still pending and leased to
   * the owner it was sent under (a lost lease writes nothing). Endpoints are not written: a success
   * that ends a failure streak or refreshes `last_success_at` goes through {@link recordSuccess}.
   */
  async recordSuccesses(rows: DeliverySuccess[]): Promise<void> {
    if (rows.length === 0) return;
    const params: unknown[] = [];
    const caseOf = (value: (row: DeliverySuccess) => unknown) => caseById(rows, params, value);
    const statusCode = caseOf((row) => row.statusCode);
    const attemptedAt = caseOf((row) => row.at);
    const deliveredAt = caseOf((row) => row.at);
    const set = `state = 'succeeded', status_code = ${statusCode}, error = NULL, attempted_at = ${attemptedAt}, delivered_at = ${deliveredAt}, next_attempt_at = NULL, due_at = NULL, lease_owner = NULL`;
    params.push(...rows.map((row) => row.id));
    const leaseOwner = caseOf((row) => row.leaseOwner);
    const sql = `UPDATE webhook_deliveries SET ${set} WHERE id IN (${rows.map(() => '?').join(', ')}) AND state = 'pending' AND lease_owner = ${leaseOwner}`;
    await this.transactions.runStatement((manager) => manager.query(sql, params));
  }

  /**
   * Anything but a 2xx: the attempt failed. Then, in the same transaction: the endpoint's failure
   * streak starts (if it had not); past `disableAfterMs` of failing the endpoint is disabled and its
   * pending attempts cancelled; otherwise the next attempt (if `nextAt`) is queued with the same event.
   */
  async recordFailure(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    now: number,
    nextAt: number | null,
    disableAfterMs: number,
  ): Promise<FailureOutcome> {
    return this.transactions.run(async (manager) => {
      const updated = await manager.update(
        WebhookDeliveryEntity,
        { id: delivery.id, leaseOwner: delivery.leaseOwner, state: 'pending' },
        {
          state: 'failed',
          statusCode: result.statusCode,
          error: result.error?.slice(0, 255) ?? null,
          attemptedAt: now,
          nextAttemptAt: nextAt,
          dueAt: null,
          leaseOwner: null,
        },
      );
      if ((updated.affected ?? 0) === 0) return 'lost';
      await manager
        .createQueryBuilder()
        .update(WebhookEndpointEntity)
        .set({ failingSince: now })
        // A callback row has no streak: one task's broken callback URL must not stop the account's other callbacks.
        .where("id = :id AND failing_since IS NULL AND kind = 'endpoint'", { id: delivery.endpointId })
        .execute();
      const endpoint = await manager.findOne(WebhookEndpointEntity, {
        where: { id: delivery.endpointId },
        select: { id: true, status: true, failingSince: true },
      });
      if (endpoint && endpoint.status === 'enabled' && endpoint.failingSince !== null && now - endpoint.failingSince >= disableAfterMs) {
        await manager.update(
          WebhookEndpointEntity,
          { id: endpoint.id, status: 'enabled' },
          { status: 'disabled', disabledAt: now, updatedAt: now },
        );
        await this.cancelPending(manager, endpoint.id);
        await manager.update(WebhookDeliveryEntity, { id: delivery.id }, { nextAttemptAt: null });
        return 'endpoint_disabled';
      }
      if (nextAt === null || endpoint?.status !== 'enabled') return 'given_up';
      await manager.insert(
        WebhookDeliveryEntity,
        pendingAttempt(delivery.endpointId, delivery.eventRowId, delivery.attempt + 1, nextAt, now, null, delivery.targetUrl),
      );
      return 'retry';
    });
  }

  /** An attempt claimed for an endpoint that is disabled by now: not sent. */
  async cancel(delivery: ClaimedDelivery): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager.update(
        WebhookDeliveryEntity,
        { id: delivery.id, leaseOwner: delivery.leaseOwner, state: 'pending' },
        { state: 'cancelled', dueAt: null, nextAttemptAt: null, leaseOwner: null },
      ),
    );
  }

  private async cancelPending(manager: EntityManager, endpointId: number): Promise<void> {
    await manager.update(
      WebhookDeliveryEntity,
      { endpointId, state: 'pending' },
      { state: 'cancelled', dueAt: null, nextAttemptAt: null, leaseOwner: null },
    );
  }

  /**
   * Parks a slow endpoint's unclaimed due attempts until `until` (it holds all its slots already),
   * so that claims stop wading through its backlog on every look; returns how many were parked.
   */
  async deferBacklog(endpointId: number, now: number, until: number): Promise<number> {
    const result = await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .update(WebhookDeliveryEntity)
        .set({ dueAt: until, nextAttemptAt: until })
        .where("endpoint_id = :endpointId AND state = 'pending' AND due_at <= :now AND lease_owner IS NULL", { endpointId, now })
        .execute(),
    );
    return result.affected ?? 0;
  }

  /** Shutting down: a claimed attempt not yet sent is due again at once, for any instance. */
  async release(delivery: ClaimedDelivery, dueAt: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager.update(
        WebhookDeliveryEntity,
        { id: delivery.id, leaseOwner: delivery.leaseOwner, state: 'pending' },
        { dueAt, leaseOwner: null },
      ),
    );
  }

  /**
   * Sends an event to an endpoint again now: its pending attempt becomes due at once, or (when none
   * is pending) a new attempt is queued. Returns the attempt, or null when `deliveryId` is not the endpoint's.
   */
  async resend(endpointId: number, deliveryId: string, now: number): Promise<WebhookDeliveryEntity | null> {
    return this.transactions.run(async (manager) => {
      const source = await manager.findOne(WebhookDeliveryEntity, { where: { endpointId, deliveryId } });
      if (!source) return null;
      const chain = await manager.find(WebhookDeliveryEntity, {
        where: { endpointId, eventId: source.eventId },
        order: { attempt: 'DESC' },
      });
      const pending = chain.find((attempt) => attempt.state === 'pending' && attempt.leaseOwner === null);
      if (pending) {
        await manager.update(
          WebhookDeliveryEntity,
          { id: pending.id, state: 'pending', leaseOwner: IsNull() },
          { dueAt: now, nextAttemptAt: now },
        );
        return Object.assign(pending, { dueAt: now, nextAttemptAt: now });
      }
      if (chain.some((attempt) => attempt.state === 'pending')) return chain.find((attempt) => attempt.state === 'pending')!;
      const next = manager.create(
        WebhookDeliveryEntity,
        pendingAttempt(endpointId, source.eventId, chain[0].attempt + 1, now, now, null, source.targetUrl),
      );
      await manager.insert(WebhookDeliveryEntity, next);
      return next;
    });
  }

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
    const rows: Array<Record<string, unknown>> = await this.readNow((manager) =>
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
    const rows: Array<Record<string, unknown>> = await this.readNow((manager) =>
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
    const rows: Array<{ n: number | string }> = await this.readNow((manager) =>
      manager.query(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'failed' AND created_at >= ?`, [from]),
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Per endpoint: the latest attempt's error, for the admins' list of failing endpoints. */
  async lastErrors(endpointIds: number[]): Promise<Map<number, WebhookDeliveryEntity>> {
    if (endpointIds.length === 0) return new Map();
    const rows = await this.readNow((manager) =>
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

  /** Housekeeping: deletes up to `limit` settled attempts (not pending) made before `before`; returns how many. */
  deleteDeliveriesBefore(before: number, limit: number): Promise<number> {
    return deleteExpiredBatch(this.transactions, WebhookDeliveryEntity, { createdAt: LessThan(before), state: Not('pending') }, limit);
  }

  /** Housekeeping: deletes up to `limit` events made before `before` that no attempt refers to any more; returns how many. */
  async deleteUnreferencedEventsBefore(before: number, limit: number): Promise<number> {
    return this.transactions.runStatement(async (manager) => {
      const picked: Array<{ id: number | string }> = await manager
        .createQueryBuilder(WebhookEventEntity, 'ev')
        .select('ev.id', 'id')
        .where('ev.created_at < :before', { before })
        .andWhere('NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id)')
        .orderBy('ev.id')
        .limit(limit)
        .getRawMany();
      if (picked.length === 0) return 0;
      const ids = picked.map((row) => Number(row.id));
      const result = await manager
        .createQueryBuilder()
        .delete()
        .from(WebhookEventEntity)
        .where('id IN (:...ids)', { ids })
        .andWhere('NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)')
        .execute();
      return result.affected ?? ids.length;
    });
  }

  /**
   * TASK_RETENTION waits while an attempt for one of the task's events is pending (first tries and
   * retries alike, to endpoints and to its callback URL): SQL on the task's `task_id` column.
   */
  readonly pendingAttempt: RetentionHold = (task) =>
    `EXISTS (SELECT 1 FROM webhook_events we JOIN webhook_deliveries wd ON wd.event_id = we.id WHERE we.task_id = ${task.taskId} AND wd.state = 'pending')`;

  /**
   * Inside the caller's transaction (a task deleted by TASK_RETENTION): the task's events and every
   * attempt to deliver them. Returns the rows deleted.
   */
  async deleteForTask(manager: EntityManager, taskId: string): Promise<number> {
    const events = await manager.find(WebhookEventEntity, { select: { id: true }, where: { taskId } });
    if (events.length === 0) return 0;
    const eventIds = events.map((event) => event.id);
    const attempts = await manager.delete(WebhookDeliveryEntity, { eventId: In(eventIds) });
    const removed = await manager.delete(WebhookEventEntity, { id: In(eventIds) });
    return (attempts.affected ?? 0) + (removed.affected ?? 0);
  }

  /** The oldest due attempt not claimed (a claimed one is due at its lease's end), or null. */
  async oldestDueAt(now: number): Promise<number | null> {
    const rows: Array<{ due: number | string | null }> = await this.readNow((manager) =>
      manager.query(`SELECT MIN(due_at) AS due FROM webhook_deliveries WHERE state = 'pending' AND due_at <= ?`, [now]),
    );
    const due = rows[0]?.due;
    return due === null || due === undefined ? null : Number(due);
  }
}
