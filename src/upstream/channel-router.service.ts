import { Injectable } from '@nestjs/common';
import { ReadThroughCache, SHARED_ROWS_TTL_MS } from '../common/runtime/read-through-cache';
import { channelTiers, rankedChannels } from './channel-ranking';
import { ChannelSecretBox } from './channel-secret-box';
import { ChannelEntity, Platform } from './channel.entity';
import { ChannelRepository } from './channel.repository';
import { ownValue } from '../common/runtime/own-value';

/** How many model-and-group lists tiers keeps for one channel list. */
const MAX_TIER_LISTS = 4096;

/**
 * Picks the channels that may serve a model for a user group: enabled, listing the model,
 * open to the group; highest priority first, weighted-random order within one priority
 * (channel-ranking.ts). A submit's dispatch plan (tasks/dispatch) ranks them with the breakers' states.
 * The enabled channels are read once per SHARED_ROWS_TTL_MS, not on every submit; ChannelsService
 * clears them when it changes a channel. Breakers are read from this instance's copy (no I/O).
 */
@Injectable()
export class ChannelRouter {
  private readonly enabled = new ReadThroughCache<ChannelEntity[]>(SHARED_ROWS_TTL_MS);
  /** tiers' lists, by the cached channel list they were made of (a new list, after a change or a refresh, starts afresh). */
  private readonly tiersByList = new WeakMap<ChannelEntity[], Map<string, ChannelEntity[][]>>();

  constructor(
    private readonly channels: ChannelRepository,
    private readonly secrets: ChannelSecretBox,
  ) {}

  /** Replaceable in unit tests. */
  random: () => number = Math.random;

  /**
   * `platforms`: every platform that routes the model (a model served by Kling directly and on fal):
   * their channels are ranked together, so a lower-priority platform is a failover, not a fallback
   * reached only when the first has no channel at all.
   */
  async candidates(platforms: Platform | readonly Platform[], model: string | readonly string[], group: string): Promise<ChannelEntity[]> {
    return rankedChannels(await this.tiers(platforms, model, group), this.random);
  }

  /**
   * The enabled channels of `platforms` listing `model` (case-insensitively) and open to `group`, one
   * list per priority, highest first (channelTiers): worked out once per cached channel list, model
   * and group (only the shuffle within a priority is made anew for each request). Shared: not to be changed.
   */
  async tiers(platforms: Platform | readonly Platform[], model: string | readonly string[], group: string): Promise<ChannelEntity[][]> {
    const all = await this.enabledOn(typeof platforms === 'string' ? [platforms] : platforms);
    let byRequest = this.tiersByList.get(all);
    // Bounded however many models and groups are asked for: past the bound the lists are worked out afresh.
    if (!byRequest || byRequest.size >= MAX_TIER_LISTS) this.tiersByList.set(all, (byRequest = new Map()));
    const key = `${namesKey(model)}\u0000${group}`;
    let tiers = byRequest.get(key);
    if (!tiers) byRequest.set(key, (tiers = channelTiers(all, model, group)));
    return tiers;
  }

  /**
   * For families whose models are the operator's: the first enabled channel of `platforms` (by id)
   * that lists `model` (case-insensitively), with the model as that channel spells it.
   */
  async listedModel(platforms: Platform[], model: string | readonly string[]): Promise<{ platform: Platform; model: string } | null> {
    const wanted = new Set((typeof model === 'string' ? [model] : model).map((name) => name.toLowerCase()));
    const channels = await this.enabledOn(platforms);
    for (const channel of channels) {
      const listed = channel.models.find((m) => wanted.has(m.toLowerCase()));
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
}

/** One key for a model's names (its id and aliases), whatever their case. */
function namesKey(model: string | readonly string[]): string {
  return (typeof model === 'string' ? [model] : model).map((name) => name.toLowerCase()).join('\u0001');
}

/** The upstream model name: the channel's mapping when it has one, else the family default. */
export function upstreamModelFor(channel: ChannelEntity, publicModel: string, familyDefault: string): string {
  const mapping = channel.modelMapping ?? {};
  const exact =
    ownValue(mapping, publicModel) ?? Object.entries(mapping).find(([key]) => key.toLowerCase() === publicModel.toLowerCase())?.[1];
  return exact ?? familyDefault;
}
