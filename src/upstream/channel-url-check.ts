import { Inject, Injectable, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { AppError } from '../common/errors/app-error';
import { assertPublicHttpUrl } from '../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ChannelSettingTraits } from './channel-setting-traits';
import type { ChannelSettings, Platform } from './channel.entity';
import { pointsAtThisGateway } from './this-gateway-url';

/** An operator's channel URLs checked: public hosts only (unless MEDIA_ALLOW_PRIVATE_HOSTS), and never this gateway itself. */
@Injectable()
export class ChannelUrlCheck {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settingTraits: ChannelSettingTraits,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /** Checks the URLs given: `base_url` (unless undefined) and each URL setting in `settings`. */
  async checkUrls(platform: Platform, baseUrl: string | undefined, settings?: ChannelSettings | null): Promise<void> {
    const allowPrivate = this.config.mediaAllowPrivateHosts;
    if (baseUrl !== undefined) {
      if (await pointsAtThisGateway(baseUrl, { publicBaseUrl: this.config.publicBaseUrl, listeningPort: this.listeningPort() })) {
        throw AppError.invalid('base_url points at this gateway itself: every task would be sent back to it in a loop', 'base_url');
      }
      await assertPublicHttpUrl(baseUrl, 'base_url', allowPrivate);
    }
    for (const name of this.settingTraits.of(platform).urls) {
      const url = settings?.[name];
      if (typeof url === 'string' && url) await assertPublicHttpUrl(url, `settings.${name}`, allowPrivate);
    }
  }

  /** The port the HTTP server listens on (PORT may be 0: a free port, known once listening). */
  private listeningPort(): number | undefined {
    const address = this.adapterHost?.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
    return address && typeof address === 'object' ? address.port : this.config.port || undefined;
  }
}
