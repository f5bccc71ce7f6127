import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { caseById } from '../database/case-by-id';
import { TransactionRunner } from '../database/transaction-runner';
import { claimLease } from '../jobs/lease-claim';
import { ClaimedDelivery, claimedRows, pendingAttempt, readNow } from './webhook-delivery-rows';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

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

/** How a failed attempt left its endpoint. */
export type FailureOutcome = 'retry' | 'given_up' | 'endpoint_disabled' | 'lost';

/**
 * The delivery job's queue. Every attempt is a row; a pending row is due at `due_at`,
 * and claiming moves `due_at` to the end of the lease, so a crashed instance's attempts come back
 * by themselves. Results are written guarded by the lease owner, like a compare-and-set.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly transactions: TransactionRunner) {}

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
      (manager, picked) => claimedRows(manager, owner, picked),
    );
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

  /** The oldest due attempt not claimed (a claimed one is due at its lease's end), or null. */
  async oldestDueAt(now: number): Promise<number | null> {
    const rows: Array<{ due: number | string | null }> = await readNow(this.transactions, (manager) =>
      manager.query(`SELECT MIN(due_at) AS due FROM webhook_deliveries WHERE state = 'pending' AND due_at <= ?`, [now]),
    );
    const due = rows[0]?.due;
    return due === null || due === undefined ? null : Number(due);
  }
}
