import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ServerSecret } from '../database/server-secret.service';

const VERSION = 'v1';

/** New signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Keeps endpoint signing secrets encrypted at rest (AES-256-GCM) with a key derived from the
 * deployment's server secret, so a copy of the database alone cannot sign as the gateway.
 */
@Injectable()
export class WebhookSecretBox {
  constructor(private readonly serverSecret: ServerSecret) {}

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(), iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  open(stored: string): string {
    const [version, body] = stored.split(':', 2);
    if (version !== VERSION || !body) throw new Error('unknown webhook secret format');
    const raw = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  private key(): Buffer {
    return this.serverSecret.derive('webhook-secrets');
  }
}
