import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error';
import type { Platform } from './channel.entity';
import type { UpstreamAdapter } from './upstream-adapter';

/** Family modules register their adapter here at start; the task core looks them up by platform. */
@Injectable()
export class UpstreamAdapterRegistry {
  private readonly adapters = new Map<Platform, UpstreamAdapter>();

  register(adapter: UpstreamAdapter): void {
    this.adapters.set(adapter.platform, adapter);
  }

  get(platform: Platform): UpstreamAdapter {
    const adapter = this.adapters.get(platform);
    if (!adapter) throw new AppError(ErrorCode.ServiceUnavailable, `no upstream adapter for platform ${platform}`);
    return adapter;
  }

  has(platform: Platform): boolean {
    return this.adapters.has(platform);
  }
}
