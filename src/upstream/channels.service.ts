import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { ChannelBreakers } from './breaker/channel-breakers.service';
import type { ChannelBreakerView } from './breaker/breaker-view';
import { ChannelRequestCounter } from './channel-request-counter.service';
import { ChannelRouter } from './channel-router.service';
import { ChannelSecretBox } from './channel-secret-box';
import { ChannelSettingTraits } from './channel-setting-traits';
import { ChannelUrlCheck } from './channel-url-check';
import { ChannelEntity, ChannelSettings, ChannelStatus, Platform } from './channel.entity';
import { ChannelRepository } from './channel.repository';
import { sanitizeProviderText } from './provider-text';

export interface ChannelInput {
  name: string;
  platform: Platform;
  baseUrl: string;
  apiKey: string;
  models: string[];
  modelMapping?: Record<string, string> | null;
  settings?: ChannelSettings | null;
  groups?: string[] | null;
  priority?: number;
  weight?: number;
  status?: ChannelStatus;
}

/** What an operator may see of a channel: everything but the provider's secrets. */
export interface ChannelView {
  id: number;
  name: string;
  platform: Platform;
  base_url: string;
  models: string[];
  model_mapping: Record<string, string> | null;
  settings: Record<string, unknown> | null;
  groups: string[] | null;
  priority: number;
  weight: number;
  status: ChannelStatus;
  request_count: number;
  error_count: number;
  error_rate: number;
  last_error: string | null;
  created_at: number;
  breaker: ChannelBreakerView;
}

/** `settings` as given: with its secret ones masked (ChannelsService.view). */
function toChannelView(channel: ChannelEntity, settings: ChannelSettings | null, breaker: ChannelBreakerView): ChannelView {
  return {
    id: channel.id,
    name: channel.name,
    platform: channel.platform,
    base_url: channel.baseUrl,
    models: channel.models,
    model_mapping: channel.modelMapping,
    settings,
    groups: channel.groups,
    priority: channel.priority,
    weight: channel.weight,
    status: channel.status,
    request_count: channel.requestCount,
    error_count: channel.errorCount,
    error_rate: channel.requestCount > 0 ? channel.errorCount / channel.requestCount : 0,
    last_error: channel.lastError,
    created_at: Math.floor(channel.createdAt / 1000),
    breaker,
  };
}

@Injectable()
export class ChannelsService {
  constructor(
    private readonly channels: ChannelRepository,
    private readonly clock: Clock,
    private readonly router: ChannelRouter,
    private readonly requestCounts: ChannelRequestCounter,
    private readonly secrets: ChannelSecretBox,
    private readonly settingTraits: ChannelSettingTraits,
    private readonly breakers: ChannelBreakers,
    private readonly urls: ChannelUrlCheck,
  ) {}

  /** Creates a channel. `trusted` skips the public-host check (channels the gateway makes itself). */
  async create(input: ChannelInput, trusted = false): Promise<ChannelEntity> {
    if (!trusted) await this.urls.checkUrls(input.platform, input.baseUrl, input.settings);
    const now = this.clock.now();
    const created = await this.channels.insert({
      name: input.name,
      platform: input.platform,
      baseUrl: input.baseUrl.replace(/\/+$/, ''),
      ...this.secrets.sealChannel(input.platform, { apiKey: input.apiKey, settings: input.settings ?? null }),
      models: input.models,
      modelMapping: input.modelMapping ?? null,
      groups: input.groups && input.groups.length > 0 ? input.groups : null,
      priority: input.priority ?? 0,
      weight: input.weight ?? 1,
      status: input.status ?? 'enabled',
      requestCount: 0,
      errorCount: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    });
    this.router.forgetChannels();
    return this.secrets.openChannel(created);
  }

  /** `trusted` skips the public-host check, as for `create`. */
  async update(id: number, input: Partial<ChannelInput>, trusted = false): Promise<ChannelEntity> {
    const channel = await this.get(id);
    // Only what this edit changes: a seeded channel on loopback (the simulator) saves from the console's form,
    // which sends its URLs back unchanged.
    if (!trusted)
      await this.urls.checkUrls(channel.platform, changedBaseUrl(channel, input.baseUrl), changedSettings(channel, input.settings));
    const changes: Partial<ChannelEntity> = { updatedAt: this.clock.now() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.baseUrl !== undefined) changes.baseUrl = input.baseUrl.replace(/\/+$/, '');
    if (input.apiKey !== undefined) changes.apiKey = input.apiKey;
    if (input.models !== undefined) changes.models = input.models;
    if (input.modelMapping !== undefined) changes.modelMapping = input.modelMapping;
    if (input.settings !== undefined) changes.settings = { ...(channel.settings ?? {}), ...(input.settings ?? {}) };
    if (input.groups !== undefined) changes.groups = input.groups && input.groups.length > 0 ? input.groups : null;
    if (input.priority !== undefined) changes.priority = input.priority;
    if (input.weight !== undefined) changes.weight = input.weight;
    if (input.status !== undefined) changes.status = input.status;
    const sealed = this.secrets.sealChannel(channel.platform, changes);
    await this.channels.update(id, sealed);
    this.router.forgetChannels();
    return this.get(id);
  }

  async get(id: number): Promise<ChannelEntity> {
    const channel = await this.channels.findById(id);
    if (!channel) throw AppError.notFound(`channel ${id} not found`);
    return this.secrets.openChannel(channel);
  }

  async list(): Promise<ChannelEntity[]> {
    return (await this.channels.list()).map((channel) => this.secrets.openChannel(channel));
  }

  /** What an operator may see of a channel: no api_key, its secret settings as `***`; its breaker as this instance knows it. */
  view(channel: ChannelEntity): ChannelView {
    return toChannelView(channel, this.settingTraits.mask(channel.platform, channel.settings), this.breakers.view(channel.id));
  }

  /** Closes the channel's breaker by hand (on every instance, with Redis): submits go to it again at once. */
  async closeBreaker(id: number): Promise<ChannelEntity> {
    const channel = await this.get(id);
    await this.breakers.close(id);
    return channel;
  }

  count(): Promise<number> {
    return this.channels.count();
  }

  /**
   * Counts a call against the channel (error rates in the console). Best effort, outside any task
   * transaction: an accepted call is added to the count within seconds (ChannelRequestCounter), a
   * failed one at once with its error. The error is kept sanitized (no URL, address, key or stack
   * text), in case a caller passes on more than a mapped message.
   */
  async recordOutcome(id: number, error: string | null): Promise<void> {
    if (error === null) return this.requestCounts.count(id);
    await this.channels.recordError(id, sanitizeProviderText(error, [], 500));
  }
}

/** The base URL an edit sets, unless it is the channel's own (trailing slashes aside). */
function changedBaseUrl(channel: ChannelEntity, baseUrl: string | undefined): string | undefined {
  return baseUrl !== undefined && baseUrl.replace(/\/+$/, '') !== channel.baseUrl ? baseUrl : undefined;
}

/** The settings an edit sets whose value differs from the channel's. */
function changedSettings(channel: ChannelEntity, settings: ChannelSettings | null | undefined): ChannelSettings | null | undefined {
  if (!settings) return settings;
  const current: Record<string, unknown> = channel.settings ?? {};
  return Object.fromEntries(Object.entries(settings).filter(([name, value]) => current[name] !== value));
}
