import type { ProviderUsage } from './upstream-adapter';

export const PROVIDER_USAGE_UNITS: readonly ProviderUsage['unit'][] = [
  'fal_billable_units',
  'credits',
  'usd_ticks',
  'predict_seconds',
  'tokens',
  'video_seconds',
];

/** xAI's `usage.cost_in_usd_ticks`: 1 USD is 10,000,000,000 ticks (upstream-protocols-aggregators.md, [X8]). */
export const USD_TICKS_PER_USD = 1e10;

/**
 * What `amount` of `unit` is in USD, where the unit says so by itself (xAI's ticks); null for the others,
 * whose price depends on the endpoint, the hardware or the plan (fal's units, Vidu's credits, Replicate's seconds).
 */
export function providerUsageUsd(unit: string, amount: number): number | null {
  if (unit !== 'usd_ticks' || !Number.isFinite(amount)) return null;
  return Math.round((amount / USD_TICKS_PER_USD) * 1e6) / 1e6;
}

/** Whether two reports say the same (a poll that repeats the last report writes nothing more). */
export function sameProviderUsage(a: ProviderUsage | null | undefined, b: ProviderUsage | null | undefined): boolean {
  return (a ?? null) === (b ?? null) || (!!a && !!b && a.unit === b.unit && a.amount === b.amount);
}

/** A report worth keeping: a known unit and a finite, non-negative amount (anything else is dropped, never stored). */
export function keptProviderUsage(usage: ProviderUsage | undefined): ProviderUsage | undefined {
  if (!usage || !PROVIDER_USAGE_UNITS.includes(usage.unit) || !Number.isFinite(usage.amount) || usage.amount < 0) return undefined;
  return { unit: usage.unit, amount: usage.amount };
}
