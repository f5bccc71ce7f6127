import { createHmac, timingSafeEqual } from 'node:crypto';

/** A signed webhook older or newer than this (its `webhook-timestamp`) is refused: a replay from long ago. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

// Replicate signs webhooks as Standard Webhooks do (upstream-protocols-aggregators.md, Replicate, Webhooks).

/** The HMAC key of a `whsec_<base64>` secret: the part after the prefix, base64-decoded. */
const keyOf = (secret: string): Buffer => Buffer.from(secret.split('_').pop() ?? '', 'base64');

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, as Replicate's `webhook-signature` lists it. */
export function signReplicateWebhook(secret: string, id: string, timestampSeconds: number, body: Buffer | string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

const header = (headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string => [headers[name]].flat()[0] ?? '';

/** Whether one of the listed signatures is the secret's over this body, and the timestamp is recent. */
export function replicateWebhookSigned(
  secret: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  rawBody: Buffer,
  nowSeconds: number,
): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  if (!id || !/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signReplicateWebhook(secret, id, Number(timestamp), rawBody));
  return header(headers, 'webhook-signature')
    .split(' ')
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(Buffer.from(candidate), expected));
}
