import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../database/secret-box';
import { ServerSecret } from '../database/server-secret.service';

/** New signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Keeps endpoint signing secrets encrypted at rest (AES-256-GCM, `v1:` + base64) with a key derived
 * from the deployment's server secret, so a copy of the database alone cannot sign as the gateway
 * (when SERVER_SECRET keeps that secret outside the database).
 */
@Injectable()
export class WebhookSecretBox extends SecretBox {
  constructor(serverSecret: ServerSecret) {
    super(serverSecret, 'webhook-secrets', 'v1:');
  }
}
