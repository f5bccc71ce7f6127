import { Injectable } from '@nestjs/common';
import { HousekeepingSweeps } from '../housekeeping/housekeeping-sweeps';
import { WebhookSweepRepository } from './webhook-sweep.repository';

/** How long delivery attempts stay visible (endpoint pages, task timelines). */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;

/** Settled webhook delivery attempts older than 30 days are deleted by housekeeping, then the events none refers to any more. */
@Injectable()
export class WebhookHousekeeping {
  constructor(sweeps: HousekeepingSweeps, deliveries: WebhookSweepRepository) {
    sweeps.register({
      table: 'webhook_deliveries',
      sweep: async (now, limit) => ({ rows: await deliveries.deleteDeliveriesBefore(now - DELIVERY_RETENTION_MS, limit) }),
    });
    // Registered after the attempts, so one round removes an event once its last attempt went.
    sweeps.register({
      table: 'webhook_events',
      sweep: async (now, limit) => ({ rows: await deliveries.deleteUnreferencedEventsBefore(now - DELIVERY_RETENTION_MS, limit) }),
    });
  }
}
