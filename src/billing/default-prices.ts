import type { PriceUnit } from './price-rule.entity';

/** Quota units per provider credit (1 credit = 0.01 USD, so 10,000 units = 1 USD). */
export const QUOTA_PER_CREDIT = 100;

export interface DefaultPrice {
  model: string;
  resolution: string;
  unit: PriceUnit;
  duration: number;
  /** Credits; converted to quota units when seeded. */
  credits: number;
  audioCredits: number | null;
}

const perSecond = (model: string, table: Record<string, [number, number | null]>): DefaultPrice[] =>
  Object.entries(table).map(([resolution, [credits, audioCredits]]) => ({ model, resolution, unit: 'second', duration: 0, credits, audioCredits }));

const perClip = (model: string, table: Record<string, Record<number, number>>): DefaultPrice[] =>
  Object.entries(table).flatMap(([resolution, byDuration]) =>
    Object.entries(byDuration).map(([duration, credits]) => ({ model, resolution, unit: 'clip' as const, duration: Number(duration), credits, audioCredits: null })),
  );

// Family A, from the provider's price list; where it names no figure the nearest listed one is used.
const v5Clips = { '360p': { 5: 45, 8: 90 }, '540p': { 5: 45, 8: 90 }, '720p': { 5: 60, 8: 120 }, '1080p': { 5: 120, 8: 240 } };
const v55Clips = { '360p': { 5: 45, 8: 90, 10: 110 }, '540p': { 5: 45, 8: 90, 10: 110 }, '720p': { 5: 60, 8: 120, 10: 150 }, '1080p': { 5: 120, 8: 240 } };
const v4Clips = { '360p': { 5: 45, 8: 90 }, '540p': { 5: 45, 8: 90 }, '720p': { 5: 60, 8: 120 }, '1080p': { 5: 120, 8: 240 } };

/**
 * The default price table. Per-clip audio tiers and fast motion cost twice the silent price;
 * per-second audio tiers are the provider's own figures. Family B and C have no list in the
 * protocol document, so they use the provider's public per-second rates, rounded.
 */
export const DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('alpha/v6', { '360p': [5, 7], '540p': [7, 9], '720p': [9, 12], '1080p': [18, 23] }),
  ...perSecond('alpha/c1', { '360p': [6, 8], '540p': [8, 10], '720p': [10, 13], '1080p': [19, 24] }),
  ...perClip('alpha/v5.6', v55Clips),
  ...perClip('alpha/v5.5', v55Clips),
  ...perClip('alpha/v5', v5Clips),
  ...perClip('alpha/v4.5', v4Clips),
  ...perClip('alpha/v4', v4Clips),
  ...perClip('alpha/v3.5', v4Clips),
  ...['beta-1.0-t2v', 'beta-1.0-i2v', 'beta-1.0-r2v', 'beta-1.0-video-edit'].flatMap((model) =>
    perSecond(model, { '720p': [10, null], '1080p': [15, null] }),
  ),
  ...perSecond('gamma-2-0', { '480p': [5, null], '720p': [10, null], '1080p': [20, null] }),
  ...perSecond('gamma-2-0-fast', { '480p': [3, null], '720p': [6, null] }),
];
