import type { LinkPolicy } from '../common/urls/url-guard';
import type { ChannelEntity } from './channel.entity';

/**
 * Which video links of this channel's provider may be shown to clients: the provider's own host
 * (the channel's, which an operator configured) is trusted; other hosts must be public unless
 * MEDIA_ALLOW_PRIVATE_HOSTS is set.
 */
export function channelLinkPolicy(channel: Pick<ChannelEntity, 'baseUrl'>, allowPrivate: boolean): LinkPolicy {
  try {
    return { allowPrivate, trustedHosts: [new URL(channel.baseUrl).host] };
  } catch {
    return { allowPrivate, trustedHosts: [] };
  }
}
