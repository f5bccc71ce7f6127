import { Inject, Injectable } from '@nestjs/common';
import { priceInGroup } from '../billing/price-of';
import { PricingService } from '../billing/pricing.service';
import { quotaPerUsd } from '../billing/quota-usd';
import { CatalogEntry, isRetiredAt, pricedResolutions } from '../catalog/catalog-entry';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ModelCatalog } from '../families/model-catalog.service';
import { CatalogService } from '../catalog/catalog.service';
import type { Caller } from '../auth/caller';
import type { SubmitQuote } from '../tasks/task-submit.service';
import type { QuoteDto } from './dto/model-list.dto';

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
    private readonly pricing: PricingService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async usableBy(caller: Caller): Promise<CatalogEntry[]> {
    const { entries } = await this.catalog.snapshot();
    const allowlist = caller.apiKey?.models ?? null;
    const now = this.clock.now();
    const usable: CatalogEntry[] = [];
    for (const entry of entries) {
      if (isRetiredAt(entry, now)) continue;
      if (!(await this.models.allows(allowlist, entry))) continue;
      if (await this.models.servedTo(entry, caller.user.group)) usable.push(entry);
    }
    return usable;
  }

  /** GET /v1/models: OpenAI's list shape; a page of it when `limit` or `after` is given. */
  async openAiList(caller: Caller, page: ModelPage = {}) {
    const { data, paging } = pageOf(await this.usableBy(caller), page);
    return {
      object: 'list' as const,
      data: data.map((entry) => ({
        id: entry.id,
        object: 'model' as const,
        created: Math.floor((entry.createdAt ?? 0) / 1000),
        // The maker; an entry without one (an operator's, before owned_by) shows its first route's platform, as before.
        owned_by: entry.ownedBy ?? entry.routes[0]?.platform ?? 'gateway',
      })),
      ...paging,
    };
  }

  /** GET /v1/videos/models: capabilities and the caller's prices; a page of them when `limit` or `after` is given. */
  async videoModels(caller: Caller, page: ModelPage = {}) {
    const usable = await this.usableBy(caller);
    // A replacement is named only where the caller may use it: another group's model never shows.
    const usableIds = new Set(usable.map((entry) => entry.id));
    const { data, paging } = pageOf(usable, page);
    const ratio = await this.pricing.groupRatio(caller.user.group);
    return { data: data.map((entry) => this.clientView(entry, ratio, usableIds)), ...paging };
  }

  /** A quote as both surfaces answer it (the unified one inside its wrapper). */
  quoteView({ draft, quota, detail }: SubmitQuote): QuoteDto {
    const { seconds, resolution, audio } = draft.quote;
    // The name the task would record: an alias as the client sent it (priced as its entry).
    const model = draft.askedModel ?? draft.quote.model;
    return { model, seconds, resolution, audio: audio === true, quota, usd: this.usd(quota), detail };
  }

  /** Quota as US dollars (6 decimals). */
  usd(quota: number): number {
    return Math.round((quota / quotaPerUsd(this.config)) * 1e6) / 1e6;
  }

  private clientView(entry: CatalogEntry, ratio: number, usableIds: ReadonlySet<string>) {
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
      aliases: entry.aliases,
      ...(entry.ownedBy !== null ? { owned_by: entry.ownedBy } : {}),
      ...(entry.releasedAt !== null ? { released_at: entry.releasedAt } : {}),
      modes: entry.modes,
      durations: entry.durations,
      default_duration: entry.defaultDuration,
      resolutions: pricedResolutions(entry),
      aspect_ratios: entry.aspectRatios,
      audio: entry.audio,
      max_reference_images: entry.maxReferenceImages,
      prompt_max_length: entry.promptMaxLength,
      prices,
      status: entry.status,
      ...(entry.sunsetAt !== null ? { sunset_at: entry.sunsetAt } : {}),
      ...(entry.replacement !== null && usableIds.has(entry.replacement) ? { replacement: entry.replacement } : {}),
    };
  }
}

/** A page of a model list: `limit` models after the model `after` (in id order); neither: the whole list, as before. */
export interface ModelPage {
  limit?: number;
  after?: string;
}

/** The default page size when only `after` is given. */
const MODEL_PAGE_SIZE = 100;

/** The whole list when no page is asked for; else the models after `after` in id order, with OpenAI's paging fields. */
function pageOf(entries: CatalogEntry[], { limit, after }: ModelPage) {
  if (limit === undefined && after === undefined) return { data: entries, paging: {} };
  const ordered = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rest = after === undefined ? ordered : ordered.filter((entry) => entry.id > after);
  const data = rest.slice(0, limit ?? MODEL_PAGE_SIZE);
  return {
    data,
    paging: { first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rest.length > data.length },
  };
}
