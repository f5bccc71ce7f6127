import { Injectable } from '@nestjs/common';
import { SecretBox } from '../database/secret-box';
import { ServerSecret } from '../database/server-secret.service';
import type { ChannelEntity, ChannelSettings } from './channel.entity';

/** The provider credentials a channel keeps in its settings (family C's control plane), next to `api_key`. */
export const PROVIDER_SECRET_SETTINGS = ['access_key', 'secret_key'] as const;

type ChannelSecretFields = Pick<ChannelEntity, 'apiKey' | 'settings'>;

/**
 * Provider keys at rest: `api_key` and the settings' credentials are stored as `enc:v1:` +
 * AES-256-GCM under the server secret's `provider-keys` key. The channels' owners (ChannelsService,
 * ChannelRouter) seal what they write and open what they read, so nothing above them sees
 * ciphertext; a value without the prefix is a legacy plain one (ChannelSecretsReseal seals it at start).
 */
@Injectable()
export class ChannelSecretBox extends SecretBox {
  constructor(serverSecret: ServerSecret) {
    super(serverSecret, 'provider-keys', 'enc:v1:');
  }

  /** The row as read, with its provider keys in plain text. */
  openChannel<T extends ChannelSecretFields>(channel: T): T {
    return Object.assign(channel, this.mapSecrets(channel, (stored) => (this.isSealed(stored) ? this.open(stored) : stored)));
  }

  /** The fields to write (plain, as given or as opened), with their provider keys sealed. */
  sealChannel<T extends Partial<ChannelSecretFields>>(fields: T): T {
    return { ...fields, ...this.mapSecrets(fields, (plain) => this.seal(plain)) };
  }

  /** Whether a row read raw holds a plain key or one sealed with a previous server secret. */
  channelNeedsReseal(channel: ChannelSecretFields): boolean {
    return [channel.apiKey, ...PROVIDER_SECRET_SETTINGS.map((name) => channel.settings?.[name])].some((value) => typeof value === 'string' && this.needsReseal(value));
  }

  private mapSecrets(fields: Partial<ChannelSecretFields>, convert: (value: string) => string): Partial<ChannelSecretFields> {
    const mapped: Partial<ChannelSecretFields> = {};
    if (typeof fields.apiKey === 'string') mapped.apiKey = convert(fields.apiKey);
    if (fields.settings) {
      const settings: ChannelSettings = { ...fields.settings };
      for (const name of PROVIDER_SECRET_SETTINGS) if (typeof settings[name] === 'string') settings[name] = convert(settings[name]);
      mapped.settings = settings;
    }
    return mapped;
  }
}
