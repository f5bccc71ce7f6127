import { Inject, Injectable, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { AppError } from '../common/errors/app-error';
import { assertPublicHttpUrl } from '../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ChannelSettingTraits } from './channel-setting-traits';
import type { ChannelSettings, Platform } from './channel.entity';
import { isThisGatewaysSimulator, pointsAtThisGateway, ThisGateway } from './this-gateway-url';

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
    const own: ThisGateway = { publicBaseUrl: this.config.publicBaseUrl, listeningPort: this.listeningPort() };
    if (baseUrl !== undefined) {
      if (await pointsAtThisGateway(baseUrl, own)) {
        throw AppError.invalid('base_url points at this gateway itself: every task would be sent back to it in a loop', 'base_url');
      }
      await this.assertReachable(baseUrl, 'base_url', own);
    }
    for (const name of this.settingTraits.of(platform).urls) {
      const url = settings?.[name];
      if (typeof url === 'string' && url) await this.assertReachable(url, `settings.${name}`, own);
    }
  }

  /** A public host, or (with SIMULATOR=on) this gateway's own simulator, which is on loopback by nature. */
  private async assertReachable(url: string, field: string, own: ThisGateway): Promise<void> {
    if (this.config.simulator && (await isThisGatewaysSimulator(url, own))) return;
    await assertPublicHttpUrl(url, field, this.config.mediaAllowPrivateHosts);
  }

  /** The port the HTTP server listens on (PORT may be 0: a free port, known once listening). */
  private listeningPort(): number | undefined {
    const address = this.adapterHost?.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
    return address && typeof address === 'object' ? address.port : this.config.port || undefined;
  }
}
