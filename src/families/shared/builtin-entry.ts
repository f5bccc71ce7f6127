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
  /** A model its provider stopped serving: deprecated (answers say so) and the model to use instead. */
  deprecatedFor?: string;
}

/** A family's builtin models as catalog entries, priced from its default (list) prices. */
export function builtinEntries(platform: Platform, models: readonly BuiltinModel[], prices: readonly DefaultPrice[]): BuiltinEntry[] {
  return models.map(({ id, label, upstreamModel, options, maxReferenceImages, promptMaxLength, deprecatedFor, ...capabilities }) => ({
    id,
    label: label ?? null,
    ...capabilities,
    maxReferenceImages: maxReferenceImages ?? null,
    promptMaxLength: promptMaxLength ?? null,
    prices: prices.filter((price) => price.model === id).map(quotaPrice),
    routes: [{ platform, upstreamModel: upstreamModel ?? id, ...(options ? { options } : {}) }],
    status: deprecatedFor ? 'deprecated' : 'active',
    sunsetAt: null,
    replacement: deprecatedFor ?? null,
  }));
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
