import type { ProviderUsage } from '../upstream/upstream-adapter';
import { providerUsageUsd } from '../upstream/provider-usage';
import { basePrice, type PriceRow, ruleForDelivered } from './price-of';
import type { DeliveredShape } from './settlement';

/** What a provider charges the operator for a clip on a catalog route: `prices`' shape, in USD. */
export interface CostRow {
  resolution: string;
  unit: 'second' | 'clip';
  /** Per-clip costs may differ by duration; absent or 0: any. */
  duration?: number;
  usd: number;
  /** The with-audio tier; absent: twice `usd`. */
  audio_usd?: number;
}

export interface ProviderCostInput {
  /** The provider's own report of the task's cost, in its unit. */
  usage: ProviderUsage | null;
  /** The channel's `settings.usd_per_unit`: what one of the provider's units (fal's, Vidu's credits, Replicate's seconds) costs. */
  usdPerUnit: number | null;
  /** The route's `cost`. */
  routeCost: readonly CostRow[] | null;
  /** What was delivered; else what was asked (a video that could not be read). */
  shape: DeliveredShape | null;
  /** For per-clip costs: the asked duration. */
  askedSeconds: number;
}

/**
 * What a task cost the operator, in USD to the millionth: the provider's own figure where it gives
 * one in money (xAI's ticks), or its units at the channel's `usd_per_unit`; else the route's `cost` at
 * what was delivered; else null (unknown).
 */
export function providerCostUsd({ usage, usdPerUnit, routeCost, shape, askedSeconds }: ProviderCostInput): number | null {
  if (usage) {
    const own = providerUsageUsd(usage.unit, usage.amount);
    if (own !== null) return own;
    if (usdPerUnit !== null && usdPerUnit >= 0) return micro(usage.amount * usdPerUnit);
  }
  if (!routeCost || routeCost.length === 0 || !shape) return null;
  const rows: PriceRow[] = routeCost.map((row) => ({
    resolution: row.resolution,
    unit: row.unit,
    duration: row.duration ?? 0,
    price: row.usd,
    audioPrice: row.audio_usd ?? null,
  }));
  const priced = { resolution: shape.resolution, seconds: shape.seconds, audio: shape.audio };
  const rule = ruleForDelivered(rows, priced, askedSeconds);
  return rule ? micro(basePrice(rule, rule.unit === 'clip' ? { ...priced, seconds: askedSeconds } : priced)) : null;
}

function micro(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
