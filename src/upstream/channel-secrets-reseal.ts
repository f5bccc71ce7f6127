import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ChannelSecretBox } from './channel-secret-box';
import { ChannelRepository } from './channel.repository';

/**
 * At every start: seals the provider keys still stored in plain text (databases from before they
 * were encrypted) and, after a rotation of the server secret, those sealed with the previous key.
 * A key no configured secret opens stops the start: the channel could not call its provider.
 */
@Injectable()
export class ChannelSecretsReseal implements OnModuleInit {
  private readonly logger = new Logger('ChannelSecretsReseal');

  constructor(
    private readonly channels: ChannelRepository,
    private readonly secrets: ChannelSecretBox,
  ) {}

  async onModuleInit(): Promise<void> {
    const rows = await this.channels.listSecrets();
    const stale = rows.filter((row) => this.secrets.channelNeedsReseal(row));
    for (const row of stale) {
      const sealed = this.secrets.sealChannel(row.platform, this.secrets.openChannel(row));
      await this.channels.updateSecrets(row.id, sealed);
    }
    if (stale.length > 0) this.logger.log(`encrypted the provider keys of ${stale.length} channel(s) with the current server secret`);
  }
}
