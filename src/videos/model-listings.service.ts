import { Inject, Injectable } from '@nestjs/common';
import { priceInGroup, PricingService } from '../billing/pricing.service';
import { CatalogEntry, isRetiredAt } from '../catalog/catalog-entry';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ModelCatalog } from '../families/model-catalog.service';
import { CatalogService } from '../catalog/catalog.service';
import type { Caller } from '../auth/caller';
import type { SubmitQuote } from '../tasks/task-submit.service';
import type { QuoteDto } from './dto/model-list.dto';
import { ChannelRouter } from '../upstream/channel-router.service';

/** Quota units per US dollar when the console's currency is not USD (1 credit = 0.01 USD = 100 units). */
const QUOTA_PER_USD = 10_000;

export interface ClientModelPrice {
  resolution: string;
  unit: 'second' | 'clip';
  duration?: number;
  quota: number;
  usd: number;
  audio_quota?: number;
  audio_usd?: number;
}

/**
 * What a client may discover of the catalog: the models its key may use that an enabled channel
 * open to its group serves (on any route), with the prices of its group. Read from the cached
 * catalog, channels and ratios: no database read per request.
 */
@Injectable()
export class ModelListings {
  constructor(
    private readonly catalog: CatalogService,
    private readonly models: ModelCatalog,
    private readonly router: ChannelRouter,
    private readonly pricing: PricingService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async usableBy(caller: Caller): Promise<CatalogEntry[]> {
    const { entries } = await this.catalog.snapshot();
    const allowed = caller.apiKey?.models?.map((model) => model.toLowerCase()) ?? null;
    const now = this.clock.now();
    const usable: CatalogEntry[] = [];
    for (const entry of entries) {
      if (isRetiredAt(entry, now)) continue;
      if (allowed && !allowed.includes(entry.id.toLowerCase())) continue;
      if (await this.served(entry, caller.user.group)) usable.push(entry);
    }
    return usable;
  }

  /** GET /v1/models: OpenAI's list shape. */
  async openAiList(caller: Caller) {
    const entries = await this.usableBy(caller);
    return {
      object: 'list' as const,
      data: entries.map((entry) => ({
        id: entry.id,
        object: 'model' as const,
        created: Math.floor((entry.createdAt ?? 0) / 1000),
        owned_by: entry.routes[0]?.platform ?? 'gateway',
      })),
    };
  }

  /** GET /v1/videos/models: capabilities and the caller's prices. */
  async videoModels(caller: Caller) {
    const entries = await this.usableBy(caller);
    const ratio = await this.pricing.groupRatio(caller.user.group);
    return { data: entries.map((entry) => this.clientView(entry, ratio)) };
  }

  /** A quote as both surfaces answer it (the unified one inside its wrapper). */
  quoteView({ draft, quota, detail }: SubmitQuote): QuoteDto {
    const { model, seconds, resolution, audio } = draft.quote;
    return { model, seconds, resolution, audio: audio === true, quota, usd: this.usd(quota), detail };
  }

  /** Quota as US dollars (6 decimals). */
  usd(quota: number): number {
    const perUsd = this.config.currency === 'USD' ? this.config.quotaPerUnit : QUOTA_PER_USD;
    return Math.round((quota / perUsd) * 1e6) / 1e6;
  }

  private clientView(entry: CatalogEntry, ratio: number) {
    const inGroup = (price: number) => priceInGroup(price, ratio);
    const prices: ClientModelPrice[] = entry.prices.map((price) => {
      const quota = inGroup(price.price);
      const audio = entry.audio === 'none' ? null : inGroup(price.audioPrice ?? price.price * 2);
      return {
        resolution: price.resolution,
        unit: price.unit,
        ...(price.unit === 'clip' && price.duration ? { duration: price.duration } : {}),
        quota,
        usd: this.usd(quota),
        ...(audio !== null ? { audio_quota: audio, audio_usd: this.usd(audio) } : {}),
      };
    });
    return {
      id: entry.id,
      label: entry.label,
      modes: entry.modes,
      durations: entry.durations,
      default_duration: entry.defaultDuration,
      resolutions: entry.resolutions,
      aspect_ratios: entry.aspectRatios,
      audio: entry.audio,
      max_reference_images: entry.maxReferenceImages,
      prompt_max_length: entry.promptMaxLength,
      prices,
      status: entry.status,
      ...(entry.sunsetAt !== null ? { sunset_at: entry.sunsetAt } : {}),
      ...(entry.replacement !== null ? { replacement: entry.replacement } : {}),
    };
  }

  private async served(entry: CatalogEntry, group: string): Promise<boolean> {
    for (const { family } of this.models.routesOf(entry)) {
      if ((await this.router.candidates(family.platform, entry.id, group)).length > 0) return true;
    }
    return false;
  }
}
