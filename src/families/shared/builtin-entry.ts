import { DefaultPrice, QUOTA_PER_CREDIT } from '../../billing/default-prices';
import type { BuiltinEntry, CatalogPrice, CatalogRoute, ModelCapabilities } from '../../catalog/catalog-entry';
import type { Platform } from '../../upstream/channel.entity';

/** A family's builtin model as data: its capabilities, its list prices (credits) and its route on the family's platform. */
export interface BuiltinModel extends Omit<ModelCapabilities, 'maxReferenceImages' | 'promptMaxLength'> {
  id: string;
  label?: string;
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
export function builtinEntries(platform: Platform, models: readonly BuiltinModel[], prices: readonly DefaultPrice[]): BuiltinEntry[] {
  return models.map(({ id, label, upstreamModel, options, maxReferenceImages, promptMaxLength, lifecycle, ...capabilities }) => ({
    id,
    label: label ?? null,
    ...capabilities,
    maxReferenceImages: maxReferenceImages ?? null,
    promptMaxLength: promptMaxLength ?? null,
    prices: prices.filter((price) => price.model === id).map(quotaPrice),
    routes: [{ platform, upstreamModel: upstreamModel ?? id, ...(options ? { options } : {}) }],
    status: lifecycle?.status ?? 'active',
    sunsetAt: lifecycle ? unixSeconds(lifecycle.sunset) : null,
    replacement: lifecycle?.replacement ?? null,
  }));
}

/** A date of the data (`2026-09-24`) as unix seconds at its UTC midnight; a typo stops the start. */
function unixSeconds(date: string): number {
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
