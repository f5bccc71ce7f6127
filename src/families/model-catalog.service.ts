import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CatalogEntry, CatalogRoute, isRetiredAt } from '../catalog/catalog-entry';
import { CatalogService, CatalogSnapshot } from '../catalog/catalog.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
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
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.catalog.mergeBuiltins(this.families.flatMap((family) => family.builtinEntries));
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
