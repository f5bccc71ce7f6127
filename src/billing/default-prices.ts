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

/** One price per second for each resolution: [silent credits, audio credits or null]. */
export const perSecond = (model: string, table: Record<string, [number, number | null]>): DefaultPrice[] =>
  Object.entries(table).map(([resolution, [credits, audioCredits]]) => ({
    model,
    resolution,
    unit: 'second',
    duration: 0,
    credits,
    audioCredits,
  }));

/** One price per clip for each resolution and duration. */
export const perClip = (model: string, table: Record<string, Record<number, number>>): DefaultPrice[] =>
  Object.entries(table).flatMap(([resolution, byDuration]) =>
    Object.entries(byDuration).map(([duration, credits]) => ({
      model,
      resolution,
      unit: 'clip' as const,
      duration: Number(duration),
      credits,
      audioCredits: null,
    })),
  );
