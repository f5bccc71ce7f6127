import type { CostRow } from '../billing/provider-cost';
import type { Platform } from '../upstream/channel.entity';

// A model as the catalog keeps it (docs: "The model catalog" in the product contract): what the customer
// buys (capabilities, prices, lifecycle) and how each platform serves it (routes). Types and pure helpers
// only, so that every module may read entries without depending on the catalog's store.

/** The modes made from a prompt and images. */
const FROM_PROMPT_AND_IMAGES = ['text-to-video', 'image-to-video', 'first-last-frame', 'reference-to-video'] as const;
/** How a task is made; the one vocabulary every family maps onto its wire. The last two make a video from a video. */
export const MODEL_MODES = [...FROM_PROMPT_AND_IMAGES, 'video-edit', 'video-extend'] as const;
export type ModelMode = (typeof MODEL_MODES)[number];

export const AUDIO_SUPPORT = ['none', 'optional', 'always'] as const;
export type AudioSupport = (typeof AUDIO_SUPPORT)[number];

export const MODEL_STATUSES = ['active', 'deprecated', 'retired'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

/** Where an entry came from: a release (`builtin`), the catalog feed (`feed`, CATALOG_FEED_URL) or the operator (`custom`). */
export type ModelSource = 'builtin' | 'feed' | 'custom';

/** Allowed seconds: a list, or every whole second of a range. */
export type DurationSpec = readonly number[] | { readonly min: number; readonly max: number };

/** The upstream id a route sends: one for every mode, or one per mode (fal's endpoints). */
export type UpstreamModelSpec = string | Readonly<Partial<Record<ModelMode, string>>>;

export interface CatalogRoute {
  platform: Platform;
  upstreamModel: UpstreamModelSpec;
  /** The platform's own options, checked by its family's schema. */
  options?: Readonly<Record<string, unknown>>;
  /** What the provider charges the operator on this route, in USD (`prices`' shape); the operator's only, never a customer's. */
  cost?: readonly CostRow[];
}

/** One price of a model, in quota units: per second or per clip (of `duration` seconds; 0: any). */
export interface CatalogPrice {
  resolution: string;
  unit: 'second' | 'clip';
  duration: number;
  price: number;
  /** The with-audio tier; null: twice `price`. */
  audioPrice: number | null;
}

/** What a model can do: checked against every request before any charge. */
export interface ModelCapabilities {
  modes: readonly ModelMode[];
  durations: DurationSpec;
  defaultDuration: number;
  /** The first is the default. */
  resolutions: readonly string[];
  /** The first is the default. */
  aspectRatios: readonly string[];
  audio: AudioSupport;
  maxReferenceImages: number | null;
  promptMaxLength: number | null;
}

export interface CatalogEntry extends ModelCapabilities {
  id: string;
  label: string | null;
  /** Other ids that resolve to this entry (an id a release used before stays one): unique across ids and aliases. */
  aliases: readonly string[];
  /** The model's maker (`kling`, `google`, `openai`...), as `/v1/models` shows it. */
  ownedBy: string | null;
  /** When the maker released it, `YYYY-MM-DD`. */
  releasedAt: string | null;
  prices: readonly CatalogPrice[];
  routes: readonly CatalogRoute[];
  status: ModelStatus;
  /** Unix seconds; for a deprecated model. */
  sunsetAt: number | null;
  /** The model to use instead (a model id). */
  replacement: string | null;
  source: ModelSource;
  /** A builtin or feed entry the operator changed: a release's merge and the feed keep it as it is. */
  modified: boolean;
  /** When it entered this catalog (ms); absent before it is stored. */
  createdAt?: number;
}

/** What a family ships: a builtin entry before it is stored. */
export type BuiltinEntry = Omit<CatalogEntry, 'source' | 'modified' | 'createdAt'>;

/** Every whole second a duration spec allows, in order. */
export function secondsOf(durations: DurationSpec): number[] {
  if (Array.isArray(durations)) return [...(durations as readonly number[])];
  const { min, max } = durations as { min: number; max: number };
  return Array.from({ length: max - min + 1 }, (_, index) => min + index);
}

export function allowsSeconds(durations: DurationSpec, seconds: number): boolean {
  if (Array.isArray(durations)) return (durations as readonly number[]).includes(seconds);
  const { min, max } = durations as { min: number; max: number };
  return Number.isInteger(seconds) && seconds >= min && seconds <= max;
}

/** The upstream id a route sends for `mode`; null when the route does not serve that mode. */
export function upstreamModelOf(route: CatalogRoute, mode: ModelMode): string | null {
  if (typeof route.upstreamModel === 'string') return route.upstreamModel;
  return route.upstreamModel[mode] ?? null;
}

export function routeOn(entry: CatalogEntry, platform: Platform): CatalogRoute | null {
  return entry.routes.find((route) => route.platform === platform) ?? null;
}

/** Whether submits and quotes are refused (410 model_retired): retired, or deprecated past its sunset. */
export function isRetiredAt(entry: Pick<CatalogEntry, 'status' | 'sunsetAt'>, nowMs: number): boolean {
  if (entry.status === 'retired') return true;
  return entry.status === 'deprecated' && entry.sunsetAt !== null && entry.sunsetAt * 1000 <= nowMs;
}

/** Every name the entry answers to: its id, then its aliases. */
export function namesOf(entry: Pick<CatalogEntry, 'id' | 'aliases'>): string[] {
  return [entry.id, ...entry.aliases];
}

/**
 * The names of `incoming` taken by another entry of `others` (as its id or one of its aliases), or
 * repeated within `incoming` itself; the first such name, or null. An entry's own id is never a collision.
 */
export function aliasCollision(
  incoming: Pick<CatalogEntry, 'id' | 'aliases'>,
  others: readonly Pick<CatalogEntry, 'id' | 'aliases'>[],
): string | null {
  const taken = new Set(others.filter((other) => other.id !== incoming.id).flatMap(namesOf));
  const seen = new Set<string>([incoming.id]);
  for (const alias of incoming.aliases) {
    if (seen.has(alias) || taken.has(alias)) return alias;
    seen.add(alias);
  }
  return taken.has(incoming.id) ? incoming.id : null;
}

/**
 * The resolutions an entry offers customers: those it has a price for (all of them with a `*` price).
 * An entry saved before prices had to cover its resolutions never shows one its quote would refuse.
 */
export function pricedResolutions(entry: Pick<CatalogEntry, 'resolutions' | 'prices'>): string[] {
  const priced = new Set(entry.prices.map((price) => price.resolution));
  return priced.has('*') ? [...entry.resolutions] : entry.resolutions.filter((resolution) => priced.has(resolution));
}
