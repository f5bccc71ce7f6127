import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PricingService } from '../billing/pricing.service';
import type { PriceRuleEntity } from '../billing/price-rule.entity';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { ReadThroughCache, SHARED_ROWS_TTL_MS } from '../common/runtime/read-through-cache';
import { isUniqueViolation, TransactionRunner } from '../database/transaction-runner';
import { type BuiltinEntry, type CatalogEntry, type CatalogPrice, type ModelSource, namesOf } from './catalog-entry';
import { CatalogChanges, keptFrom, noChanges, record, samePrices, verdictFor } from './catalog-entry-diff';
import { CatalogModelEntity } from './catalog-model.entity';
import { CatalogRepository } from './catalog.repository';

/** Every entry, by id as stored; shared by every reader until the next load (callers must not change it). */
export interface CatalogSnapshot {
  entries: readonly CatalogEntry[];
  byId: ReadonlyMap<string, CatalogEntry>;
  /** By id and by each alias. */
  byName: ReadonlyMap<string, CatalogEntry>;
}

/**
 * The model catalog's store: entries with their prices (price_rules, through PricingService: one
 * store for the entry and the Prices page). Read through the shared-rows cache (no database read per
 * request); every write clears it on this instance, others see it within SHARED_ROWS_TTL_MS.
 */
@Injectable()
export class CatalogService {
  private readonly logger = new Logger('Catalog');
  private readonly cached = new ReadThroughCache<CatalogSnapshot>(SHARED_ROWS_TTL_MS);

  constructor(
    private readonly models: CatalogRepository,
    private readonly pricing: PricingService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {
    // A price written on the Prices page is the operator's: a release's merge keeps it.
    pricing.onPriceWritten(async (model) => {
      await this.models.markModified(model, this.clock.now());
      this.cached.clear();
    });
  }

  snapshot(): Promise<CatalogSnapshot> {
    return this.cached.get('all', () => this.load());
  }

  async find(id: string): Promise<CatalogEntry | null> {
    return (await this.snapshot()).byId.get(id) ?? null;
  }

  async get(id: string): Promise<CatalogEntry> {
    const entry = await this.find(id);
    if (!entry) throw AppError.notFound(`model ${id} not found`);
    return entry;
  }

  /** A new custom entry; 409 when the id is taken. */
  async create(entry: BuiltinEntry): Promise<CatalogEntry> {
    const exists = () => new AppError(ErrorCode.Conflict, `model ${entry.id} exists`, { param: 'id' });
    if (await this.models.find(entry.id)) throw exists();
    return this.write({ ...entry, source: 'custom', modified: false }, 'insert').catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists() : error;
    });
  }

  /** The entry as the operator now wants it: a builtin or feed one is marked changed, so a release's merge and the feed keep it. */
  replace(stored: CatalogEntry, next: BuiltinEntry): Promise<CatalogEntry> {
    return this.write({ ...next, source: stored.source, modified: stored.source !== 'custom' }, 'update');
  }

  async remove(id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      await this.models.delete(manager, id);
      await this.pricing.deletePricesOf(manager, [id]);
    });
    this.forget();
  }

  /**
   * A release's builtin entries merged into the catalog (at start): a new model arrives with its
   * prices and routes; an entry the operator changed keeps the operator's values; one the release
   * no longer ships stays as it is. Prices already in the table for a new model (from before the
   * catalog) are the operator's: they stay, and the entry counts as changed by the operator.
   * While a catalog feed is configured (`feedConfigured`), an entry the feed last wrote is the
   * feed's: the release leaves it to the feed (read right after), so that no start flips it back.
   */
  async mergeBuiltins(builtins: readonly BuiltinEntry[], feedConfigured = false): Promise<CatalogChanges> {
    const changes = await this.apply(builtins, 'builtin', false, feedConfigured);
    // Counts at info (a first start adds every builtin: a list would push the start-up banner off the screen).
    this.logger.log(
      `catalog merge: ${changes.added.length} added, ${changes.changed.length} updated, ${changes.unchanged.length} unchanged, ` +
        `${changes.kept_operator_changes.length} kept as the operator changed them`,
    );
    if (changes.added.length) this.logger.debug(`catalog merge added: ${changes.added.join(', ')}`);
    return changes;
  }

  /** An operator's catalog file: the merge's rule, new models being custom ones; with `dryRun`, only the diff. */
  importEntries(entries: readonly BuiltinEntry[], dryRun: boolean): Promise<CatalogChanges> {
    return this.apply(entries, 'custom', dryRun);
  }

  /**
   * The catalog feed's entries (CATALOG_FEED_URL), merged as a release's are: a new model arrives
   * as a `feed` entry, one the operator changed or made keeps the operator's values. Safe to run
   * twice, or on several instances at once: each entry is written in its own transaction with the
   * same values whoever writes it, a second insert of a new model is skipped (the unique key), and
   * a row the operator made theirs since the read is left alone (read again inside that transaction).
   */
  mergeFeed(entries: readonly BuiltinEntry[]): Promise<CatalogChanges> {
    return this.apply(entries, 'feed', false);
  }

  private async apply(
    incoming: readonly BuiltinEntry[],
    newSource: ModelSource,
    dryRun: boolean,
    feedOwns = false,
  ): Promise<CatalogChanges> {
    const stored = await this.load();
    const existingRules = await this.pricing.listRules();
    const changes = noChanges();
    const writes: CatalogEntry[] = [];
    /** A release's or the feed's merge (not the operator's import). */
    const merge = newSource !== 'custom';
    /** Stored builtin entries a release's entry now lists as aliases, by the id of the entry taking them. */
    const folds = new Map<string, string[]>();
    for (const shipped of incoming) {
      const current = stored.byId.get(shipped.id);
      if (newSource === 'builtin' && feedOwns && current?.source === 'feed') continue;
      let entry = shipped;
      if (merge && verdictFor(shipped, current, newSource) !== 'keep') {
        const { aliases, folded } = aliasesToTake(shipped, stored);
        if (aliases.length !== shipped.aliases.length) entry = { ...shipped, aliases };
        if (folded.length > 0) folds.set(entry.id, folded);
      }
      const verdict = verdictFor(entry, current, newSource);
      record(changes, verdict, entry.id);
      if (dryRun || verdict === 'unchanged' || verdict === 'keep') continue;
      if (verdict === 'change') {
        // An import is the operator's change: a builtin or feed entry it changes is kept by later merges.
        const byOperator = !merge && current!.source !== 'custom';
        const source = merge && current!.source !== 'custom' ? newSource : current!.source;
        writes.push({ ...entry, source, modified: byOperator, createdAt: current!.createdAt });
        continue;
      }
      const rulesBefore = existingRules.filter((rule) => rule.model === entry.id).map(priceOf);
      // Prices set before the catalog existed (the old Prices page) are the operator's.
      const operatorPrices = merge && rulesBefore.length > 0 && !samePrices(rulesBefore, entry.prices);
      writes.push({ ...entry, prices: operatorPrices ? rulesBefore : entry.prices, source: newSource, modified: operatorPrices });
    }
    if (writes.length === 0) return changes;
    if (newSource === 'custom') {
      // An operator's import applies all or nothing: one transaction.
      await this.transactions.run(async (manager) => {
        for (const entry of writes) await this.writeIn(manager, entry);
      });
      this.forget();
      return changes;
    }
    for (const entry of writes) {
      const folded = folds.get(entry.id) ?? [];
      try {
        await this.transactions.run(async (manager) => {
          // The operator changed it since the read (a PATCH meanwhile): theirs, as the verdict would say now.
          const origin = await this.models.originOf(manager, entry.id);
          if (origin && keptFrom(origin, newSource)) return;
          // The old entries go with the write that takes their ids as aliases: never a moment without the name.
          for (const id of folded) await this.models.delete(manager, id);
          if (folded.length > 0) await this.pricing.deletePricesOf(manager, folded);
          await this.writeIn(manager, entry);
        });
        if (folded.length > 0) this.logger.log(`catalog merge: ${folded.join(', ')} now alias ${entry.id}`);
      } catch (error) {
        // Several instances starting at once merge the same release: the one that inserted first wins, the rest skip it.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    this.forget();
    return changes;
  }

  private async write(entry: CatalogEntry, kind: 'insert' | 'update'): Promise<CatalogEntry> {
    const existing = kind === 'update' ? await this.models.find(entry.id) : null;
    await this.transactions.run((manager) => this.writeIn(manager, { ...entry, createdAt: existing?.createdAt }));
    this.forget();
    return entry;
  }

  /** The entry's row and prices, inside the caller's transaction (`createdAt`: the stored row's, when it has one). */
  private async writeIn(manager: EntityManager, entry: CatalogEntry): Promise<void> {
    const now = this.clock.now();
    const row = Object.assign(new CatalogModelEntity(), {
      id: entry.id,
      label: entry.label,
      aliases: entry.aliases.length > 0 ? [...entry.aliases] : null,
      ownedBy: entry.ownedBy,
      releasedAt: entry.releasedAt,
      capabilities: {
        modes: entry.modes,
        durations: entry.durations,
        defaultDuration: entry.defaultDuration,
        resolutions: entry.resolutions,
        aspectRatios: entry.aspectRatios,
        audio: entry.audio,
        maxReferenceImages: entry.maxReferenceImages,
        promptMaxLength: entry.promptMaxLength,
      },
      routes: [...entry.routes],
      status: entry.status,
      sunsetAt: entry.sunsetAt,
      replacement: entry.replacement,
      source: entry.source,
      modified: entry.modified,
      createdAt: entry.createdAt ?? now,
      updatedAt: now,
    });
    await this.models.save(manager, row);
    await this.pricing.replacePrices(
      manager,
      entry.id,
      entry.prices.map((price) => ({ ...price })),
    );
  }

  private forget(): void {
    this.cached.clear();
    this.pricing.forgetPrices();
  }

  private async load(): Promise<CatalogSnapshot> {
    const [rows, rules] = await Promise.all([this.models.all(), this.pricing.listRules()]);
    const pricesOf = new Map<string, CatalogPrice[]>();
    for (const rule of rules) pricesOf.set(rule.model, [...(pricesOf.get(rule.model) ?? []), priceOf(rule)]);
    const entries = rows.map((row) => entryOf(row, pricesOf.get(row.id) ?? []));
    const byName = new Map<string, CatalogEntry>();
    // Ids first: an id always denotes its own entry, whatever an alias says.
    for (const entry of entries) byName.set(entry.id, entry);
    for (const entry of entries) for (const alias of entry.aliases) if (!byName.has(alias)) byName.set(alias, entry);
    return { entries, byId: new Map(entries.map((entry) => [entry.id, entry])), byName };
  }
}

function priceOf(rule: PriceRuleEntity): CatalogPrice {
  return { resolution: rule.resolution, unit: rule.unit, duration: rule.duration, price: rule.price, audioPrice: rule.audioPrice };
}

function entryOf(row: CatalogModelEntity, prices: CatalogPrice[]): CatalogEntry {
  return {
    id: row.id,
    label: row.label,
    aliases: row.aliases ?? [],
    ownedBy: row.ownedBy,
    releasedAt: row.releasedAt,
    ...row.capabilities,
    prices,
    routes: row.routes,
    status: row.status,
    sunsetAt: row.sunsetAt,
    replacement: row.replacement,
    source: row.source,
    modified: row.modified,
    createdAt: row.createdAt,
  };
}

/**
 * Which of a release's (or the feed's) aliases an entry takes: a stored builtin or feed entry of that id the operator never
 * changed is folded into it (its row goes; tasks keep its id, which now resolves here); a name the
 * operator's entries hold (a custom or changed entry's id, or another entry's alias) stays theirs.
 */
function aliasesToTake(entry: BuiltinEntry, stored: CatalogSnapshot): { aliases: string[]; folded: string[] } {
  const aliases: string[] = [];
  const folded: string[] = [];
  for (const alias of entry.aliases) {
    const holder = stored.byName.get(alias);
    if (!holder || holder.id === entry.id) aliases.push(alias);
    else if (holder.id === alias && holder.source !== 'custom' && !holder.modified && !namesOf(holder).slice(1).length) {
      aliases.push(alias);
      folded.push(alias);
    }
  }
  return { aliases, folded };
}
