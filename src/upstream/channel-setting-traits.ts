import { Injectable } from '@nestjs/common';
import type { ChannelEntity, ChannelSettings, Platform } from './channel.entity';

/**
 * Encryption at rest of a setting a family marks `secret: true` (as channels.api_key is): the one
 * place every secret setting passes on its way into the database. Pass-through until the provider
 * key encryption is wired here (it seals api_key the same way).
 */
export function encryptSecretSetting(value: string): string {
  return value;
}

/** The inverse of encryptSecretSetting, on every read of a channel. */
export function decryptSecretSetting(value: string): string {
  return value;
}

/** What the channels' owner must know of a platform's settings without knowing its family. */
export interface PlatformSettingTraits {
  /** Stored encrypted, shown as `***`. */
  readonly secret: readonly string[];
  /** URLs the gateway calls: held to public hosts like base_url. */
  readonly urls: readonly string[];
}

const NONE: PlatformSettingTraits = { secret: [], urls: [] };

/**
 * Which settings of each platform are secrets or URLs, as the families declare them (FamilyRegistry
 * tells this at start): the upstream module owns the channels' `settings` column and seals, opens,
 * masks and checks them here, for every family alike.
 */
@Injectable()
export class ChannelSettingTraits {
  private readonly byPlatform = new Map<Platform, PlatformSettingTraits>();

  declare(platform: Platform, traits: PlatformSettingTraits): void {
    this.byPlatform.set(platform, traits);
  }

  of(platform: Platform): PlatformSettingTraits {
    return this.byPlatform.get(platform) ?? NONE;
  }

  /** The settings to store: secret ones encrypted. */
  seal(platform: Platform, settings: ChannelSettings | null): ChannelSettings | null {
    return this.mapSecrets(platform, settings, encryptSecretSetting);
  }

  /** A channel as read, with its secret settings in plain text for the adapters. */
  open(channel: ChannelEntity): ChannelEntity {
    channel.settings = this.mapSecrets(channel.platform, channel.settings, decryptSecretSetting);
    return channel;
  }

  /** The settings as an operator may see them: each secret one present reads `***`. */
  mask(platform: Platform, settings: ChannelSettings | null): ChannelSettings | null {
    return this.mapSecrets(platform, settings, () => '***', true);
  }

  private mapSecrets(platform: Platform, settings: ChannelSettings | null, convert: (value: string) => string, anyValue = false): ChannelSettings | null {
    if (!settings) return settings;
    const mapped: ChannelSettings = { ...settings };
    for (const name of this.of(platform).secret) {
      const value = mapped[name];
      if (typeof value === 'string' || (anyValue && name in mapped)) mapped[name] = convert(String(value));
    }
    return mapped;
  }
}
