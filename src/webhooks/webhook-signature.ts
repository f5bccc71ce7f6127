import { Webhook } from 'standardwebhooks';

/**
 * `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`
 * keyed with the base64-decoded `whsec_` secret, as the `standardwebhooks` library computes it.
 */
export function signWebhook(secret: string, eventId: string, timestamp: Date, payload: string): string {
  return new Webhook(secret).sign(eventId, timestamp, payload);
}
