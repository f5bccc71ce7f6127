import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { ClaimedDelivery, claimedRows, pendingAttempt } from './webhook-delivery-rows';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEventType } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';
import { newEventId } from './webhook-ids';
import { eventBody } from './webhook-event.view';

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

/** What puts attempts in the queue: the events of task ends, a test event sent at once, a resend. */
@Injectable()
export class WebhookEnqueueRepository {
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
      const [claimed] = await claimedRows(manager, owner, [attempt.id]);
      return claimed;
    });
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
}
