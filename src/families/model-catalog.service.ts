import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CatalogEntry, CatalogRoute, isRetiredAt, namesOf } from '../catalog/catalog-entry';
import { CatalogService, CatalogSnapshot } from '../catalog/catalog.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PricingService } from '../billing/pricing.service';
import { ChannelRouter } from '../upstream/channel-router.service';
import { ChannelsService } from '../upstream/channels.service';
import type { FamilyDefinition } from './family';
import { FAMILY_DEFINITIONS } from './family-definitions.token';
import { builtinCatalog } from './shared/builtin-entry';

/** A name as clients send it -> the entry, by each registered family's way of comparing its ids. */
interface NameIndex {
  byKey: Map<string, CatalogEntry>;
}

/** Who asks for a model: the caller's group, and its key's model allowlist (null: any model). */
export interface ModelViewer {
  group: string;
  allowlist: readonly string[] | null;
}

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
    private readonly router: ChannelRouter,
    private readonly pricing: PricingService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.catalog.mergeBuiltins(builtinCatalog(this.families.map((family) => family.builtinEntries)), !!this.config.catalogFeed);
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
          aliases: [],
          releasedAt: null,
          // The channel sold it: active, whatever became of the template's model.
          status: 'active',
          sunsetAt: null,
          replacement: null,
          prices: prices
            .filter((rule) => rule.model === model)
            .map(({ resolution, unit, duration, price, audioPrice }) => ({ resolution, unit, duration, price, audioPrice })),
          routes: [{ platform: family.platform, upstreamModel: model }],
        });
      }
    }
  }

  /** The entry `name` denotes (its id or one of its aliases), or null. */
  async find(name: string): Promise<CatalogEntry | null> {
    const snapshot = await this.catalog.snapshot();
    const exact = snapshot.byName.get(name);
    if (exact) return exact;
    const index = this.indexOf(snapshot);
    for (const family of this.families) {
      if (!family.modelIdKey) continue;
      const entry = index.byKey.get(`${family.platform}\u0000${family.modelIdKey(name)}`);
      if (entry) return entry;
    }
    return null;
  }

  /**
   * The entry a submit or quote names: the interface's 400 for an unknown model, and for another
   * group's (served, but by no channel open to the viewer's group: it is not the viewer's to see);
   * a 410 for a retired one, naming its replacement only where the viewer may use it.
   */
  async usable(name: string, viewer: ModelViewer): Promise<CatalogEntry> {
    const entry = await this.find(name);
    if (!entry || (await this.servedToOthersOnly(entry, viewer.group))) throw AppError.invalid(`unknown model: ${name}`, 'model');
    if (isRetiredAt(entry, this.clock.now())) {
      const replacement = await this.replacementFor(entry, viewer);
      const instead = replacement ? `; use ${replacement} instead` : '';
      throw new AppError(ErrorCode.ModelRetired, `model ${entry.id} is retired${instead}`, { param: 'model' });
    }
    return entry;
  }

  /** The entry's replacement, where the viewer may use it (another group's model is never named); else null. */
  async replacementFor(entry: CatalogEntry, viewer: ModelViewer): Promise<string | null> {
    const replacement = entry.replacement === null ? null : await this.find(entry.replacement);
    if (!replacement || isRetiredAt(replacement, this.clock.now())) return null;
    if (!(await this.allows(viewer.allowlist, replacement)) || !(await this.servedTo(replacement, viewer.group))) return null;
    return replacement.id;
  }

  /**
   * Whether a key's model allowlist names the entry: by its id exactly, or by a name the entry's
   * family compares as its id (the catalog's own rule, `find`); null allows every model.
   */
  async allows(allowlist: readonly string[] | null, entry: CatalogEntry): Promise<boolean> {
    if (allowlist === null) return true;
    for (const name of allowlist) {
      if (namesOf(entry).includes(name) || (await this.find(name))?.id === entry.id) return true;
    }
    return false;
  }

  /** Whether an enabled channel open to `group` serves the model on one of its routes (the router's cached tiers: no ranking needed). */
  async servedTo(entry: CatalogEntry, group: string): Promise<boolean> {
    for (const { family } of this.routesOf(entry)) {
      if ((await this.router.tiers(family.platform, namesOf(entry), group)).length > 0) return true;
    }
    return false;
  }

  /** Another group's model: enabled channels serve it, none of them open to `group`. */
  private async servedToOthersOnly(entry: CatalogEntry, group: string): Promise<boolean> {
    const platforms = this.routesOf(entry).map(({ family }) => family.platform);
    if (platforms.length === 0 || (await this.router.listedModel(platforms, namesOf(entry))) === null) return false;
    return !(await this.servedTo(entry, group));
  }

  /** A channel of `platform` may list a model only when the catalog routes it there: a 400 naming `models` otherwise. */
  async assertRoutedOn(platform: string, models: readonly string[]): Promise<void> {
    for (const name of models) {
      const entry = await this.find(name);
      if (!entry)
        throw AppError.invalid(
          `models: ${name} is not in the model catalog (add it first: POST /api/admin/models)`,
          'models',
          'modelInCatalog',
        );
      if (!entry.routes.some((route) => route.platform === platform)) {
        const on = entry.routes.map((route) => route.platform).join(', ');
        throw AppError.invalid(
          `models: ${name} has no route on ${platform} (it is routed on ${on}); add one to its catalog entry`,
          'models',
          'modelRouted',
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
        if (family?.modelIdKey)
          for (const name of namesOf(entry)) index.byKey.set(`${family.platform}\u0000${family.modelIdKey(name)}`, entry);
      }
    }
    this.indexes.set(snapshot, index);
    return index;
  }
}
