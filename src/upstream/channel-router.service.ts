import { Injectable } from '@nestjs/common';
import { ReadThroughCache, SHARED_ROWS_TTL_MS } from '../common/runtime/read-through-cache';
import { ChannelBreakers } from './breaker/channel-breakers.service';
import { ChannelSecretBox } from './channel-secret-box';
import { ChannelEntity, Platform } from './channel.entity';
import { ChannelRepository } from './channel.repository';
import { ownValue } from '../common/runtime/own-value';

/** How many model-and-group lists tiersOf keeps for one channel list. */
const MAX_TIER_LISTS = 4096;

/** The channels a submit may go to now, best first; `openUntil`: when the first open breaker among the others lets a submit try again. */
export interface Route {
  channels: ChannelEntity[];
  openUntil: number | null;
}

/**
 * Picks the channels that may serve a model for a user group: enabled, listing the model,
 * open to the group; highest priority first, weighted-random order within one priority.
 * A submit goes to those whose breaker is not open (`route`), and tries them in order.
 * The enabled channels are read once per SHARED_ROWS_TTL_MS, not on every submit; ChannelsService
 * clears them when it changes a channel. Breakers are read from this instance's copy (no I/O).
 */
@Injectable()
export class ChannelRouter {
  private readonly enabled = new ReadThroughCache<ChannelEntity[]>(SHARED_ROWS_TTL_MS);
  /** tiersOf's lists, by the cached channel list they were made of (a new list, after a change or a refresh, starts afresh). */
  private readonly tiers = new WeakMap<ChannelEntity[], Map<string, ChannelEntity[][]>>();

  constructor(
    private readonly channels: ChannelRepository,
    private readonly secrets: ChannelSecretBox,
    private readonly breakers: ChannelBreakers,
  ) {}

  /** Replaceable in unit tests. */
  random: () => number = Math.random;

  /**
   * `platforms`: every platform that routes the model (a model served by Kling directly and on fal):
   * their channels are ranked together, so a lower-priority platform is a failover, not a fallback
   * reached only when the first has no channel at all.
   */
  async candidates(platforms: Platform | readonly Platform[], model: string, group: string): Promise<ChannelEntity[]> {
    const all = await this.enabledOn(typeof platforms === 'string' ? [platforms] : platforms);
    const ranked: ChannelEntity[] = [];
    for (const tier of this.tiersOf(all, model, group)) ranked.push(...this.weightedShuffle(tier));
    return ranked;
  }

  /**
   * The channels of `all` listing `model` (case-insensitively) and open to `group`, one list per
   * priority, highest first: worked out once per cached channel list, model and group (only the
   * shuffle within a priority is made anew for each request).
   */
  private tiersOf(all: ChannelEntity[], model: string, group: string): ChannelEntity[][] {
    let byRequest = this.tiers.get(all);
    // Bounded however many models and groups are asked for: past the bound the lists are worked out afresh.
    if (!byRequest || byRequest.size >= MAX_TIER_LISTS) this.tiers.set(all, (byRequest = new Map()));
    const wanted = model.toLowerCase();
    const key = `${wanted}\u0000${group}`;
    let tiers = byRequest.get(key);
    if (!tiers) {
      const eligible = all.filter(
        (channel) => channel.models.some((m) => m.toLowerCase() === wanted) && openToGroup(channel.groups, group),
      );
      const byPriority = new Map<number, ChannelEntity[]>();
      for (const channel of eligible) byPriority.set(channel.priority, [...(byPriority.get(channel.priority) ?? []), channel]);
      tiers = [...byPriority.keys()].sort((a, b) => b - a).map((priority) => byPriority.get(priority)!);
      byRequest.set(key, tiers);
    }
    return tiers;
  }

  /** The candidates a submit goes to now (of `only`, when given): those whose breaker is not open, in the same order. */
  async route(platforms: Platform | readonly Platform[], model: string, group: string, only?: readonly number[]): Promise<Route> {
    const channels: ChannelEntity[] = [];
    let openUntil: number | null = null;
    for (const channel of await this.candidates(platforms, model, group)) {
      if (only && !only.includes(channel.id)) continue;
      const until = this.breakers.openUntil(channel.id);
      if (until === null) channels.push(channel);
      else openUntil = openUntil === null ? until : Math.min(openUntil, until);
    }
    return { channels, openUntil };
  }

  /**
   * For families whose models are the operator's: the first enabled channel of `platforms` (by id)
   * that lists `model` (case-insensitively), with the model as that channel spells it.
   */
  async listedModel(platforms: Platform[], model: string): Promise<{ platform: Platform; model: string } | null> {
    const wanted = model.toLowerCase();
    const channels = await this.enabledOn(platforms);
    for (const channel of channels) {
      const listed = channel.models.find((m) => m.toLowerCase() === wanted);
      if (listed !== undefined) return { platform: channel.platform, model: listed };
    }
    return null;
  }

  /** After a channel was created or changed. */
  forgetChannels(): void {
    this.enabled.clear();
  }

  /** The enabled channels of `platforms`, by id (cached per set of platforms). */
  private enabledOn(platforms: readonly Platform[]): Promise<ChannelEntity[]> {
    return this.enabled.get(platforms.join(','), async () =>
      (await this.channels.enabledOn([...platforms])).map((channel) => this.secrets.openChannel(channel)),
    );
  }

  /** Efraimidis-Spirakis: key = u^(1/w), larger first; weight 0 goes last. */
  private weightedShuffle(channels: ChannelEntity[]): ChannelEntity[] {
    return channels
      .map((channel) => ({ channel, key: channel.weight > 0 ? Math.pow(this.random(), 1 / channel.weight) : -1 }))
      .sort((a, b) => b.key - a.key)
      .map((entry) => entry.channel);
  }
}

/**
 * Whether a channel's groups admit `group`: by exact name. The admin API only stores arrays; a
 * string left by an older row is one group name, never a text to search (`"vip-customers"` is not open to `vip`).
 */
function openToGroup(groups: unknown, group: string): boolean {
  if (groups === null || groups === undefined) return true;
  return Array.isArray(groups) ? groups.includes(group) : groups === group;
}

/** The upstream model name: the channel's mapping when it has one, else the family default. */
export function upstreamModelFor(channel: ChannelEntity, publicModel: string, familyDefault: string): string {
  const mapping = channel.modelMapping ?? {};
  const exact =
    ownValue(mapping, publicModel) ?? Object.entries(mapping).find(([key]) => key.toLowerCase() === publicModel.toLowerCase())?.[1];
  return exact ?? familyDefault;
}
