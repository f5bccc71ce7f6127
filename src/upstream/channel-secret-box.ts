import { Injectable } from '@nestjs/common';
import { SecretBox } from '../database/secret-box';
import { ServerSecret } from '../database/server-secret.service';
import type { ChannelEntity, ChannelSettings, Platform } from './channel.entity';
import { ChannelSettingTraits } from './channel-setting-traits';

type ChannelSecretFields = Pick<ChannelEntity, 'apiKey' | 'settings'>;

/**
 * Provider keys at rest: `api_key` and the settings a family marks `secret` (ChannelSettingTraits) are stored as `enc:v1:` +
 * AES-256-GCM under the server secret's `provider-keys` key. The channels' owners (ChannelsService,
 * ChannelRouter) seal what they write and open what they read, so nothing above them sees
 * ciphertext; a value without the prefix is a legacy plain one (ChannelSecretsReseal seals it at start).
 */
@Injectable()
export class ChannelSecretBox extends SecretBox {
  constructor(
    serverSecret: ServerSecret,
    private readonly traits: ChannelSettingTraits,
  ) {
    super(serverSecret, 'provider-keys', 'enc:v1:');
  }

  /** The row as read, with its provider keys in plain text. */
  openChannel<T extends ChannelSecretFields & Pick<ChannelEntity, 'platform'>>(channel: T): T {
    return Object.assign(
      channel,
      this.mapSecrets(channel.platform, channel, (stored) => (this.isSealed(stored) ? this.open(stored) : stored)),
    );
  }

  /** The fields to write (plain, as given or as opened), with `platform`'s provider keys sealed. */
  sealChannel<T extends Partial<ChannelSecretFields>>(platform: Platform, fields: T): T {
    return { ...fields, ...this.mapSecrets(platform, fields, (plain) => this.seal(plain)) };
  }

  /** Whether a row read raw holds a plain key or one sealed with a previous server secret. */
  channelNeedsReseal(channel: ChannelSecretFields & Pick<ChannelEntity, 'platform'>): boolean {
    const secretSettings = this.traits.of(channel.platform).secret.map((name) => channel.settings?.[name]);
    return [channel.apiKey, ...secretSettings].some((value) => typeof value === 'string' && this.needsReseal(value));
  }

  private mapSecrets(
    platform: Platform,
    fields: Partial<ChannelSecretFields>,
    convert: (value: string) => string,
  ): Partial<ChannelSecretFields> {
    const mapped: Partial<ChannelSecretFields> = {};
    if (typeof fields.apiKey === 'string') mapped.apiKey = convert(fields.apiKey);
    if (fields.settings) {
      const settings: ChannelSettings = { ...fields.settings };
      for (const name of this.traits.of(platform).secret) if (typeof settings[name] === 'string') settings[name] = convert(settings[name]);
      mapped.settings = settings;
    }
    return mapped;
  }
}
