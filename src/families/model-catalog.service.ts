import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CatalogEntry, CatalogRoute, isRetiredAt } from '../catalog/catalog-entry';
import { CatalogService, CatalogSnapshot } from '../catalog/catalog.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { PricingService } from '../billing/pricing.service';
import { ChannelsService } from '../upstream/channels.service';
import type { FamilyDefinition } from './family';
import { FAMILY_DEFINITIONS } from './family-definitions.token';

/** A name as clients send it -> the entry, by each registered family's way of comparing its ids. */
interface NameIndex {
  byKey: Map<string, CatalogEntry>;
}

/** Where GET /v1/videos/models lists the models: named in every unknown model's 400. */
export const MODEL_LIST_HINT = 'GET /v1/videos/models lists the models';

/**
 * The catalog as the families read it: which entry a name denotes (each family says how its ids
 * compare), which of its routes a registered family serves, whether it may still be used, and the
 * builtin entries merged in at start.
 */
@Injectable()
export class ModelCatalog implements OnApplicationBootstrap {
  private readonly indexes = new WeakMap<CatalogSnapshot, NameIndex>();

  constructor(
    @Inject(FAMILY_DEFINITIONS) private readonly families: readonly FamilyDefinition[],
    private readonly catalog: CatalogService,
    private readonly channels: ChannelsService,
    private readonly pricing: PricingService,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.catalog.mergeBuiltins(this.families.flatMap((family) => family.builtinEntries));
    await this.adoptChannelModels();
  }

  /**
   * Before the catalog, a family without a fixed list (family O) served whatever its channels
   * listed: each such model without an entry becomes a custom entry routed on that platform, shaped
   * like the family's first builtin entry (with what the family says of that name), with the prices
   * the operator had set for it.
   */
  private async adoptChannelModels(): Promise<void> {
    const open = this.families.filter((family) => family.modelsFromChannels && family.builtinEntries.length > 0);
    if (open.length === 0) return;
    const channels = await this.channels.list();
    const prices = await this.pricing.listRules();
    for (const family of open) {
      const listed = new Set(channels.filter((channel) => channel.platform === family.platform).flatMap((channel) => channel.models));
      for (const model of listed) {
        if (await this.find(model)) continue;
        const template = family.builtinEntries[0];
        await this.catalog.create({
          ...template,
          ...family.channelModelCapabilities?.(model),
          id: model,
          label: null,
          prices: prices
            .filter((rule) => rule.model === model)
            .map(({ resolution, unit, duration, price, audioPrice }) => ({ resolution, unit, duration, price, audioPrice })),
          routes: [{ platform: family.platform, upstreamModel: model }],
        });
      }
    }
  }

  /** The entry `name` denotes, or null. */
  async find(name: string): Promise<CatalogEntry | null> {
    const snapshot = await this.catalog.snapshot();
    const exact = snapshot.byId.get(name);
    if (exact) return exact;
    const index = this.indexOf(snapshot);
    for (const family of this.families) {
      if (!family.modelIdKey) continue;
      const entry = index.byKey.get(`${family.platform}\u0000${family.modelIdKey(name)}`);
      if (entry) return entry;
    }
    return null;
  }

  /** The entry a submit or quote names: a 400 pointing at the model list for an unknown one, a 410 for a retired one. */
  async usable(name: string): Promise<CatalogEntry> {
    const entry = await this.find(name);
    if (!entry) throw AppError.invalid(`unknown model: ${name} (${MODEL_LIST_HINT})`, 'model');
    if (isRetiredAt(entry, this.clock.now())) {
      const instead = entry.replacement ? `; use ${entry.replacement} instead` : '';
      throw new AppError(ErrorCode.ModelRetired, `model ${entry.id} is retired${instead}`, { param: 'model' });
    }
    return entry;
  }

  /** A channel of `platform` may list a model only when the catalog routes it there: a 400 naming `models` otherwise. */
  async assertRoutedOn(platform: string, models: readonly string[]): Promise<void> {
    for (const name of models) {
      const entry = await this.find(name);
      if (!entry) throw AppError.invalid(`models: ${name} is not in the model catalog (add it first: POST /api/admin/models)`, 'models');
      if (!entry.routes.some((route) => route.platform === platform)) {
        const on = entry.routes.map((route) => route.platform).join(', ');
        throw AppError.invalid(
          `models: ${name} has no route on ${platform} (it is routed on ${on}); add one to its catalog entry`,
          'models',
        );
      }
    }
  }

  /** The entry's routes a registered family serves, in the entry's order, with that family. */
  routesOf(entry: CatalogEntry): Array<{ family: FamilyDefinition; route: CatalogRoute }> {
    return entry.routes.flatMap((route) => {
      const family = this.families.find((candidate) => candidate.platform === route.platform);
      return family ? [{ family, route }] : [];
    });
  }

  private indexOf(snapshot: CatalogSnapshot): NameIndex {
    let index = this.indexes.get(snapshot);
    if (index) return index;
    index = { byKey: new Map() };
    for (const entry of snapshot.entries) {
      for (const route of entry.routes) {
        const family = this.families.find((candidate) => candidate.platform === route.platform);
        if (family?.modelIdKey) index.byKey.set(`${family.platform}\u0000${family.modelIdKey(entry.id)}`, entry);
      }
    }
    this.indexes.set(snapshot, index);
    return index;
  }
}
