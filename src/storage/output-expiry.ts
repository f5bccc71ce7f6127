import { Injectable } from '@nestjs/common';
import { FamilyRegistry } from '../families/family-registry';
import type { Platform } from '../upstream/channel.entity';

/**
 * How long each provider keeps a finished video at its link (the adapter's `outputExpiresAfterMs`):
 * Replicate an hour, xAI's and Vidu's links less. Such a video is archived first, and once its link
 * has expired without a copy, it is gone (410 `video_expired`).
 */
@Injectable()
export class OutputExpiry {
  constructor(private readonly families: FamilyRegistry) {}

  /** Milliseconds a finished video of `platform` stays at its provider; null when the provider keeps it. */
  lifetimeMs(platform: Platform): number | null {
    const ms = this.families.findAdapter(platform)?.outputExpiresAfterMs;
    return ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : null;
  }

  /** When the provider drops the video of a task of `platform` that finished at `finishedAt` (ms epoch); null when it keeps it. */
  expiresAt(platform: Platform, finishedAt: number): number | null {
    const lifetime = this.lifetimeMs(platform);
    return lifetime === null ? null : finishedAt + lifetime;
  }
}
