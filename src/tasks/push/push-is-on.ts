import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamAdapter } from '../../upstream/upstream-adapter';

/**
 * Push is on for a channel when its family's provider calls back, the channel does not say
 * `settings.push: false`, and PUBLIC_BASE_URL was set (the localhost default is no address a provider can reach).
 */
export function pushIsOn(channel: ChannelEntity, adapter: UpstreamAdapter, config: Pick<AppConfig, 'publicBaseUrlSet'>): boolean {
  return adapter.push !== undefined && config.publicBaseUrlSet && channel.settings?.push !== false;
}
