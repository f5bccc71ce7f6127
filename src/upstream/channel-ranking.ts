import type { ChannelEntity } from './channel.entity';

/**
 * The channels of `all` that may serve `model` for `group`: listing the model (case-insensitively)
 * and open to the group; one list per priority, highest first, each in `all`'s order (by id).
 */
export function channelTiers(all: readonly ChannelEntity[], model: string | readonly string[], group: string): ChannelEntity[][] {
  // A model's names (its id and aliases): a channel listing any of them serves it.
  const names = new Set((typeof model === 'string' ? [model] : model).map((name) => name.toLowerCase()));
  const byPriority = new Map<number, ChannelEntity[]>();
  for (const channel of all) {
    if (!channel.models.some((m) => names.has(m.toLowerCase())) || !openToGroup(channel.groups, group)) continue;
    const tier = byPriority.get(channel.priority);
    if (tier) tier.push(channel);
    else byPriority.set(channel.priority, [channel]);
  }
  return [...byPriority.keys()].sort((a, b) => b - a).map((priority) => byPriority.get(priority)!);
}

/** The tiers in the order a submit tries them: highest priority first, weighted-random within one priority. */
export function rankedChannels(tiers: readonly (readonly ChannelEntity[])[], random: () => number): ChannelEntity[] {
  const ranked: ChannelEntity[] = [];
  for (const tier of tiers) ranked.push(...weightedShuffle(tier, random));
  return ranked;
}

/** Efraimidis-Spirakis: key = u^(1/w), larger first; weight 0 goes last. */
export function weightedShuffle(channels: readonly ChannelEntity[], random: () => number): ChannelEntity[] {
  return channels
    .map((channel) => ({ channel, key: channel.weight > 0 ? Math.pow(random(), 1 / channel.weight) : -1 }))
    .sort((a, b) => b.key - a.key)
    .map((entry) => entry.channel);
}

/**
 * Whether a channel's groups admit `group`: by exact name. The admin API only stores arrays; a
 * string left by an older row is one group name, never a text to search (`"vip-customers"` is not open to `vip`).
 */
export function openToGroup(groups: unknown, group: string): boolean {
  if (groups === null || groups === undefined) return true;
  return Array.isArray(groups) ? groups.includes(group) : groups === group;
}
