import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ServerSecret } from '../database/server-secret.service';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookSecretBox } from './webhook-secret-box';

/** After a rotation of the server secret, seals every endpoint's secret again with the new key, at start. */
@Injectable()
export class WebhookSecretsReseal implements OnModuleInit {
  private readonly logger = new Logger('WebhookSecretsReseal');

  constructor(
    private readonly serverSecret: ServerSecret,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly secrets: WebhookSecretBox,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.serverSecret.hasPreviousKeys()) return;
    let resealed = 0;
    for (const { id, secretEncrypted } of await this.endpoints.sealedSecrets()) {
      if (!this.secrets.needsReseal(secretEncrypted)) continue;
      resealed += await this.endpoints.replaceSealedSecret(id, secretEncrypted, this.secrets.seal(this.secrets.open(secretEncrypted)));
    }
    this.logger.log(`re-encrypted ${resealed} webhook secret(s) with the current server secret`);
  }
}
