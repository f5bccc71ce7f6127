import { deliveredResolution, deliveredSeconds } from '../media/delivered-usage';
import type { VideoFacts } from '../media/video-facts';
import { basePrice, type PricedShape, priceInGroup, type PriceRow, ruleForDelivered } from './price-of';

/**
 * What a task keeps at submit to settle later on what was delivered: its model's prices then, its
 * group's ratio then, and what was asked. Settlement prices the delivered video at these rates, not
 * at the rates in force when it ends.
 */
export interface PriceBasis {
  rules: PriceRow[];
  ratio: number;
  asked: Required<PricedShape>;
}

/** The delivered shape in the catalog's terms: whole seconds, a resolution name. */
export interface DeliveredShape {
  seconds: number;
  resolution: string;
  audio: boolean;
}

export type SettledAs = 'delivered' | 'as_asked';

export interface Settlement {
  settled: SettledAs;
  /** The final charge: never more than what was charged at submit. */
  quota: number;
  /** What goes back to the customer: the charge at submit less the final one. */
  refund: number;
  /** What the stored video is; null when it could not be read. */
  delivered: DeliveredShape | null;
  /** Asked and delivered, for the refund's ledger row and the task's timeline. */
  detail: string;
}

/** The names the gateway gives a frame's short edge, beside the model's own (`768p`). */
const RESOLUTION_NAMES = ['240p', '360p', '480p', '540p', '720p', '1080p', '1440p', '4k'];

/** The delivered video in the catalog's terms: the duration rounded to the nearest second, the short edge's name. */
export function deliveredShape(video: VideoFacts, modelResolutions: readonly string[] = []): DeliveredShape {
  return {
    seconds: deliveredSeconds(video.durationSeconds),
    resolution: deliveredResolution(video.width, video.height, [...RESOLUTION_NAMES, ...modelResolutions])!,
    audio: video.hasAudio,
  };
}

/**
 * The final charge of a task that charged `charged` at submit: the price of what was delivered at
 * the submit's rates (per-second prices on seconds, resolution and audio; per-clip prices on
 * resolution and audio), never more than `charged`. As asked (no refund) when the video could not
 * be read, the task kept no basis, or no rule prices what was delivered.
 */
export function settle(charged: number, basis: PriceBasis | null, video: VideoFacts | null): Settlement {
  if (!video) return asAsked(charged, null, 'the video could not be read');
  const priced = basis?.rules.map((rule) => rule.resolution) ?? [];
  const delivered = deliveredShape(video, priced);
  if (!basis) return asAsked(charged, delivered, 'the task kept no prices to settle with');
  const resolution = deliveredResolution(video.width, video.height, priced) ?? '*';
  const shape: PricedShape = {
    resolution,
    seconds: delivered.seconds,
    audio: delivered.audio,
    fastMotion: basis.asked.fastMotion,
  };
  const rule = ruleForDelivered(basis.rules, shape, basis.asked.seconds);
  if (!rule) return asAsked(charged, delivered, `no price at ${resolution}`);
  const price = priceInGroup(basePrice(rule, rule.unit === 'clip' ? { ...shape, seconds: basis.asked.seconds } : shape), basis.ratio);
  const quota = Math.max(0, Math.min(charged, price));
  return {
    settled: 'delivered',
    quota,
    refund: charged - quota,
    delivered,
    detail: `asked ${describe(basis.asked)}, delivered ${describe(delivered)}`,
  };
}

function asAsked(charged: number, delivered: DeliveredShape | null, why: string): Settlement {
  return { settled: 'as_asked', quota: charged, refund: 0, delivered, detail: `charged as asked: ${why}` };
}

function describe(shape: { seconds: number; resolution: string; audio?: boolean }): string {
  return `${shape.seconds}s ${shape.resolution} ${shape.audio ? 'with audio' : 'no audio'}`;
}
