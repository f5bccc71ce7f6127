import type { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** What tells one new endpoint row from another; the rest starts the same for every row. */
export interface NewEndpointRow {
  endpointId: string;
  userId: number;
  kind: WebhookEndpointEntity['kind'];
  url: string;
  events: WebhookEndpointEntity['events'];
  secretEncrypted: string;
  now: number;
}

/** A new endpoint row (a customer's endpoint or the account's callback row): enabled, never failed, never delivered to. */
export function newEndpointRow(row: NewEndpointRow): Omit<WebhookEndpointEntity, 'id'> {
  return {
    endpointId: row.endpointId,
    userId: row.userId,
    kind: row.kind,
    url: row.url,
    events: row.events,
    secretEncrypted: row.secretEncrypted,
    status: 'enabled',
    failingSince: null,
    disabledAt: null,
    lastSuccessAt: null,
    createdAt: row.now,
    updatedAt: row.now,
  };
}
