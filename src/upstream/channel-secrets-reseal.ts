import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionRunner } from '../database/transaction-runner';
import { ChannelSecretBox } from './channel-secret-box';
import { ChannelEntity } from './channel.entity';

/**
 * At every start: seals the provider keys still stored in plain text (databases from before they
 * were encrypted) and, after a rotation of the server secret, those sealed with the previous key.
 * A key no configured secret opens stops the start: the channel could not call its provider.
 */
@Injectable()
export class ChannelSecretsReseal implements OnModuleInit {
  private readonly logger = new Logger('ChannelSecretsReseal');

  constructor(
    @InjectRepository(ChannelEntity) private readonly channels: Repository<ChannelEntity>,
    private readonly transactions: TransactionRunner,
    private readonly secrets: ChannelSecretBox,
  ) {}

  async onModuleInit(): Promise<void> {
    const rows = await this.channels.find({ select: { id: true, platform: true, apiKey: true, settings: true }, order: { id: 'ASC' } });
    const stale = rows.filter((row) => this.secrets.channelNeedsReseal(row));
    for (const row of stale) {
      const sealed = this.secrets.sealChannel(row.platform, this.secrets.openChannel(row));
      await this.transactions.run((manager) =>
        manager.update(ChannelEntity, { id: row.id }, {
          apiKey: sealed.apiKey,
          settings: sealed.settings,
        } as QueryDeepPartialEntity<ChannelEntity>),
      );
    }
    if (stale.length > 0) this.logger.log(`encrypted the provider keys of ${stale.length} channel(s) with the current server secret`);
  }
}
