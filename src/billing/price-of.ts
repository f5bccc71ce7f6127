import type { PriceUnit } from './price-rule.entity';

/** The columns of a price rule a price is worked out from (what a task keeps of its model's prices at submit). */
export interface PriceRow {
  resolution: string;
  unit: PriceUnit;
  duration: number;
  price: number;
  audioPrice: number | null;
}

/** What is priced: a clip's shape. */
export interface PricedShape {
  /** Lower-case quality, e.g. `720p`. */
  resolution: string;
  seconds: number;
  audio?: boolean;
  fastMotion?: boolean;
}

/**
 * The rule that prices `shape`: the resolution and the duration, else the resolution at any
 * duration, else any resolution at the duration, else any at all.
 */
export function ruleFor<R extends PriceRow>(rules: readonly R[], shape: PricedShape): R | undefined {
  return (
    pick(rules, shape.resolution, shape.seconds) ??
    pick(rules, shape.resolution, 0) ??
    pick(rules, '*', shape.seconds) ??
    pick(rules, '*', 0)
  );
}

/**
 * The rule that prices a delivered clip: a per-clip price is the asked duration's (such clips settle
 * on resolution and audio alone), a per-second price is any duration's.
 */
export function ruleForDelivered<R extends PriceRow>(rules: readonly R[], delivered: PricedShape, askedSeconds: number): R | undefined {
  const asked = ruleFor(rules, { ...delivered, seconds: askedSeconds });
  return asked?.unit === 'clip' ? asked : (ruleFor(rules, delivered) ?? asked);
}

/** `shape`'s price by `rule` before the group's ratio: per second times the seconds, or per clip; audio's tier, fast motion twice. */
export function basePrice(rule: PriceRow, shape: PricedShape): number {
  const unitPrice = shape.audio ? (rule.audioPrice ?? rule.price * 2) : rule.price;
  return (rule.unit === 'second' ? unitPrice * shape.seconds : unitPrice) * (shape.fastMotion ? 2 : 1);
}

/** A price at a group's ratio, in whole quota units: ceiled, so that a fractional ratio never rounds a paid task down to free. */
export function priceInGroup(price: number, ratio: number): number {
  return Math.ceil(price * ratio - 1e-9);
}

function pick<R extends PriceRow>(rules: readonly R[], resolution: string, duration: number): R | undefined {
  return rules.find((rule) => rule.resolution === resolution && rule.duration === duration);
}
