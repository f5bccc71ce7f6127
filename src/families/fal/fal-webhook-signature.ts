import { createHash, createPublicKey, KeyObject, sign, verify } from 'node:crypto';

/** A signed webhook whose `X-Fal-Webhook-Timestamp` is further than this from now is refused (a replay). */
export const FAL_WEBHOOK_TOLERANCE_SECONDS = 300;

// fal signs webhooks with ED25519 (upstream-protocols-aggregators.md, fal, Webhooks).

/** One key of fal's JWKS: `{kty: "OKP", crv: "Ed25519", x: <base64url>}`. */
export interface FalJwk {
  kty?: unknown;
  crv?: unknown;
  x?: unknown;
}

/** `request_id \n user_id \n timestamp \n sha256_hex(body)`: what fal signs. */
export function falSignedMessage(requestId: string, userId: string, timestamp: string, rawBody: Buffer): Buffer {
  return Buffer.from(`${requestId}\n${userId}\n${timestamp}\n${createHash('sha256').update(rawBody).digest('hex')}`);
}

/** The hex signature fal sends (the emulator signs as fal does). */
export function signFalWebhook(privateKey: KeyObject, requestId: string, userId: string, timestamp: string, rawBody: Buffer): string {
  return sign(null, falSignedMessage(requestId, userId, timestamp, rawBody), privateKey).toString('hex');
}

/** The Ed25519 public keys of a JWKS; keys of other types are left out. */
export function falPublicKeys(jwks: unknown): KeyObject[] {
  const keys = (jwks as { keys?: unknown })?.keys;
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((jwk: FalJwk) => {
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return [];
    try {
      return [createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })];
    } catch {
      return [];
    }
  });
}

const header = (headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string => [headers[name]].flat()[0] ?? '';

/** Whether one of `keys` signed this webhook, and its timestamp is recent. */
export function falWebhookSigned(
  keys: readonly KeyObject[],
  headers: Readonly<Record<string, string | string[] | undefined>>,
  rawBody: Buffer,
  nowSeconds: number,
): boolean {
  const requestId = header(headers, 'x-fal-webhook-request-id');
  const userId = header(headers, 'x-fal-webhook-user-id');
  const timestamp = header(headers, 'x-fal-webhook-timestamp');
  const signature = header(headers, 'x-fal-webhook-signature');
  if (!requestId || !/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > FAL_WEBHOOK_TOLERANCE_SECONDS) return false;
  const message = falSignedMessage(requestId, userId, timestamp, rawBody);
  return keys.some((key) => verify(null, message, key, Buffer.from(signature, 'hex')));
}
