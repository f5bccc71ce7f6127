import type { ChannelEntity } from '../upstream/channel.entity';
import type { UpstreamAdapter } from '../upstream/upstream-adapter';

/** The channel's `poll_interval_ms` when set, else the family default; never below the family's minimum. */
export function pollIntervalFor(channel: ChannelEntity, adapter: UpstreamAdapter): number {
  const configured = Number(channel.settings?.poll_interval_ms);
  const interval = Number.isFinite(configured) && configured > 0 ? configured : adapter.defaultPollIntervalMs;
  return Math.max(interval, adapter.minPollIntervalMs ?? 0);
}
