import { DefaultPrice, QUOTA_PER_CREDIT } from '../../billing/default-prices';
import type { BuiltinEntry, CatalogPrice, CatalogRoute, ModelCapabilities } from '../../catalog/catalog-entry';
import type { Platform } from '../../upstream/channel.entity';

/** A family's builtin model as data: its capabilities, its list prices (credits) and its route on the family's platform. */
export interface BuiltinModel extends Omit<ModelCapabilities, 'maxReferenceImages' | 'promptMaxLength'> {
  id: string;
  label?: string;
  /** Ids a release used before for this model (or another platform's name of it): they keep working. */
  aliases?: readonly string[];
  /** The model's maker; the family's default when absent. */
  ownedBy?: string;
  /** `YYYY-MM-DD`. */
  releasedAt?: string;
  maxReferenceImages?: number;
  promptMaxLength?: number;
  /** What the provider is sent; the public id when absent. */
  upstreamModel?: CatalogRoute['upstreamModel'];
  /** The platform's own route options. */
  options?: Record<string, unknown>;
  /** Absent: active. */
  lifecycle?: BuiltinLifecycle;
}

/**
 * A model its provider stops or stopped serving: `deprecated` works until `sunset` (answers say
 * so), `retired` is a 410 model_retired; `replacement`, where another route serves the same model.
 */
export interface BuiltinLifecycle {
  status: 'deprecated' | 'retired';
  /** The provider's date, `YYYY-MM-DD` (UTC). */
  sunset: string;
  replacement?: string;
}

/** A family's builtin models as catalog entries, priced from its default (list) prices. */
export function builtinEntries(
  platform: Platform,
  models: readonly BuiltinModel[],
  prices: readonly DefaultPrice[],
  maker: string = platform,
): BuiltinEntry[] {
  return models.map(
    ({
      id,
      label,
      aliases,
      ownedBy,
      releasedAt,
      upstreamModel,
      options,
      maxReferenceImages,
      promptMaxLength,
      lifecycle,
      ...capabilities
    }) => ({
      id,
      label: label ?? null,
      aliases: [...(aliases ?? [])],
      ownedBy: ownedBy ?? maker,
      releasedAt: releasedAt ?? null,
      ...capabilities,
      maxReferenceImages: maxReferenceImages ?? null,
      promptMaxLength: promptMaxLength ?? null,
      prices: prices.filter((price) => price.model === id).map(quotaPrice),
      routes: [{ platform, upstreamModel: upstreamModel ?? id, ...(options ? { options } : {}) }],
      status: lifecycle?.status ?? 'active',
      sunsetAt: lifecycle ? unixSeconds(lifecycle.sunset) : null,
      replacement: lifecycle?.replacement ?? null,
    }),
  );
}

/**
 * Every family's builtin entries as one catalog: one entry per model. Families that serve the same
 * model ship an entry of the same id, each with its own route; the first family's entry (in the
 * registry's order) gives the capabilities, prices and lifecycle, the others add their routes and aliases.
 */
export function builtinCatalog(perFamily: readonly (readonly BuiltinEntry[])[]): BuiltinEntry[] {
  const byId = new Map<string, BuiltinEntry>();
  for (const entry of perFamily.flat()) {
    const first = byId.get(entry.id);
    if (!first) {
      byId.set(entry.id, entry);
      continue;
    }
    byId.set(entry.id, {
      ...first,
      aliases: [...new Set([...first.aliases, ...entry.aliases])],
      routes: [...first.routes, ...entry.routes],
    });
  }
  return [...byId.values()];
}

/** A date of the data (`2026-09-24`) as unix seconds at its UTC midnight; a typo stops the start. */
export function unixSeconds(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(ms)) throw new Error(`builtin model sunset ${date} is not a YYYY-MM-DD date`);
  return ms / 1000;
}

/** Rounded: a list price in fractional credits (9.8) times 100 is not always an exact integer in floating point. */
function quotaPrice(price: DefaultPrice): CatalogPrice {
  return {
    resolution: price.resolution,
    unit: price.unit,
    duration: price.duration,
    price: Math.round(price.credits * QUOTA_PER_CREDIT),
    audioPrice: price.audioCredits === null ? null : Math.round(price.audioCredits * QUOTA_PER_CREDIT),
  };
}
