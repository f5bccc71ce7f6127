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

/** What the stored video is: its duration in seconds, its frame's short edge in pixels, whether it has sound. */
export interface DeliveredVideo {
  durationSeconds: number;
  shortEdge: number;
  audio: boolean;
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

/** A resolution name's short edge in pixels (`720p` 720, `4k` 2160), or null for a name that says none (`*`). */
export function shortEdgeOf(name: string): number | null {
  const lines = /^(\d{3,4})p$/i.exec(name);
  if (lines) return Number(lines[1]);
  const k = /^([248])k$/i.exec(name);
  return k ? { '2': 1440, '4': 2160, '8': 4320 }[k[1]]! : null;
}

/**
 * The name for a short edge among `names`: the largest at most that edge (a size between two names
 * takes the lower one); the smallest name when the edge is below them all; null when no name says an edge.
 */
export function resolutionNameFor(shortEdge: number, names: readonly string[]): string | null {
  const sized = names
    .map((name) => ({ name, edge: shortEdgeOf(name) }))
    .filter((entry): entry is { name: string; edge: number } => entry.edge !== null)
    .sort((a, b) => a.edge - b.edge);
  if (sized.length === 0) return null;
  return (sized.filter((entry) => entry.edge <= shortEdge).pop() ?? sized[0]).name;
}

/** The delivered video in the catalog's terms: the duration rounded to the nearest second, the short edge's name. */
export function deliveredShape(video: DeliveredVideo, modelResolutions: readonly string[] = []): DeliveredShape {
  return {
    seconds: Math.round(video.durationSeconds),
    resolution: resolutionNameFor(video.shortEdge, [...RESOLUTION_NAMES, ...modelResolutions])!,
    audio: video.audio,
  };
}

/**
 * The final charge of a task that charged `charged` at submit: the price of what was delivered at
 * the submit's rates (per-second prices on seconds, resolution and audio; per-clip prices on
 * resolution and audio), never more than `charged`. As asked (no refund) when the video could not
 * be read, the task kept no basis, or no rule prices what was delivered.
 */
export function settle(charged: number, basis: PriceBasis | null, video: DeliveredVideo | null): Settlement {
  if (!video) return asAsked(charged, null, 'the video could not be read');
  const priced = basis?.rules.map((rule) => rule.resolution) ?? [];
  const delivered = deliveredShape(video, priced);
  if (!basis) return asAsked(charged, delivered, 'the task kept no prices to settle with');
  const resolution = resolutionNameFor(video.shortEdge, priced) ?? '*';
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
