import type { AppConfig } from '../config/app-config';
import type { ChannelEntity } from '../upstream/channel.entity';
import type { UpstreamAdapter } from '../upstream/upstream-adapter';
import { pushIsOn } from './push/push-is-on';

/**
 * The channel's `poll_interval_ms` when set, else the family default; never below the family's minimum.
 * With `push` (the configuration) and push on for the channel, polls are the safety net: at least PROVIDER_PUSH_POLL_MS apart.
 */
export function pollIntervalFor(
  channel: ChannelEntity,
  adapter: UpstreamAdapter,
  push?: Pick<AppConfig, 'publicBaseUrlSet' | 'providerPushPollMs'>,
): number {
  const configured = Number(channel.settings?.poll_interval_ms);
  const interval = Number.isFinite(configured) && configured > 0 ? configured : adapter.defaultPollIntervalMs;
  const polled = Math.max(interval, adapter.minPollIntervalMs ?? 0);
  return push && pushIsOn(channel, adapter, push) ? Math.max(polled, push.providerPushPollMs) : polled;
}
