import { Injectable } from '@nestjs/common';
import type { ChannelSettings, Platform } from './channel.entity';

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
 * tells this at start): the upstream module owns the channels' `settings` column; ChannelSecretBox
 * seals and opens the secret ones, and this class masks and checks them, for every family alike.
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

  /** The settings as an operator may see them: each secret one present reads `***`. */
  mask(platform: Platform, settings: ChannelSettings | null): ChannelSettings | null {
    if (!settings) return settings;
    const masked: ChannelSettings = { ...settings };
    for (const name of this.of(platform).secret) if (name in masked) masked[name] = '***';
    return masked;
  }
}
