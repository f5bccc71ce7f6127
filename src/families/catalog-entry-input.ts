import type { CostRow } from '../billing/provider-cost';
import {
  AUDIO_SUPPORT,
  BuiltinEntry,
  type CatalogPrice,
  CatalogEntry,
  DurationSpec,
  MODEL_STATUSES,
  ModelMode,
  secondsOf,
} from '../catalog/catalog-entry';
import { type CatalogEntryDto, type CatalogRouteCostDto, jsonBytes, MAX_ROUTES_BYTES } from '../catalog/catalog-entry.dto';
import { AppError } from '../common/errors/app-error';
import { FieldProblems } from '../common/errors/field-problems';
import type { FamilyDefinition } from './family';

/** Fields a PATCH may clear with `null`; the others must stay set. */
const CLEARABLE = new Set([
  'label',
  'aliases',
  'owned_by',
  'released_at',
  'default_duration',
  'max_reference_images',
  'prompt_max_length',
  'sunset_at',
  'replacement',
]);

/**
 * An entry as the admin API sent it (already checked field by field) -> a catalog entry, with the
 * rules across fields: each a 400 naming the field. Route options are checked by the family of the
 * route's platform; `exists` tells whether a replacement model is in the catalog.
 */
export function entryFromInput(
  input: CatalogEntryDto,
  families: readonly FamilyDefinition[],
  exists: (id: string) => boolean,
  field = (name: string) => name,
): BuiltinEntry {
  const problems = new FieldProblems(field);
  const durations = input.durations as DurationSpec;
  const seconds = secondsOf(durations);
  const defaultDuration = input.default_duration ?? seconds[0];
  if (!seconds.includes(defaultDuration))
    problems.add('default_duration', `default_duration must be one of durations (${seconds.join(', ')})`);
  const resolutions = input.resolutions.map((resolution) => resolution.trim().toLowerCase());
  const prices = pricesOf(input.prices, resolutions, problems);
  const platforms = new Set<string>();
  const routes = input.routes.flatMap((route, index) => {
    const family = families.find((candidate) => candidate.platform === route.platform);
    if (!family) {
      const names = families.map((candidate) => candidate.platform).join(', ');
      problems.add(`routes[${index}].platform`, `routes[${index}].platform must be one of the following values: ${names}`);
      return [];
    }
    if (platforms.has(route.platform)) {
      problems.add(`routes[${index}].platform`, `routes[${index}].platform: the model has a route on ${route.platform} already`);
      return [];
    }
    platforms.add(route.platform);
    const options = route.options ?? {};
    const refused = family.checkRouteOptions
      ? family.checkRouteOptions(options)
      : Object.keys(options).length > 0
        ? { field: Object.keys(options)[0], message: `${route.platform} routes take no options` }
        : null;
    if (refused) problems.add(`routes[${index}].options.${refused.field}`, `routes[${index}].options.${refused.message}`);
    const cost = costOf(route.cost ?? [], resolutions, `routes[${index}].cost`, problems);
    return [
      {
        platform: route.platform,
        upstreamModel: route.upstream_model,
        ...(Object.keys(options).length > 0 ? { options } : {}),
        ...(cost.length > 0 ? { cost } : {}),
      },
    ];
  });
  // One JSON text column holds them: within the smallest such column (MariaDB's TEXT), as stored.
  if (jsonBytes(routes) > MAX_ROUTES_BYTES) problems.add('routes', `routes must be at most ${MAX_ROUTES_BYTES} bytes as JSON`);
  const replacement = input.replacement ?? null;
  if (replacement !== null && (replacement === input.id || !exists(replacement)))
    problems.add('replacement', `replacement must be another model of the catalog`);
  const releasedAt = input.released_at ?? null;
  if (releasedAt !== null && Number.isNaN(Date.parse(`${releasedAt}T00:00:00Z`)))
    problems.add('released_at', 'released_at must be a date, YYYY-MM-DD');
  const aliases = input.aliases ?? [];
  const repeated = aliases.find((alias, index) => alias === input.id || aliases.indexOf(alias) !== index);
  if (repeated !== undefined) problems.add('aliases', `aliases: ${repeated} is named twice (as the id or an alias)`);
  problems.throwIfAny();
  return {
    id: input.id,
    label: input.label ?? null,
    aliases: [...aliases],
    ownedBy: input.owned_by ?? null,
    releasedAt,
    modes: input.modes as ModelMode[],
    durations: Array.isArray(durations)
      ? [...(durations as number[])]
      : { min: (durations as { min: number }).min, max: (durations as { max: number }).max },
    defaultDuration,
    resolutions,
    aspectRatios: input.aspect_ratios.map((ratio) => ratio.trim()),
    audio: input.audio as (typeof AUDIO_SUPPORT)[number],
    maxReferenceImages: input.max_reference_images ?? null,
    promptMaxLength: input.prompt_max_length ?? null,
    prices,
    routes,
    status: (input.status ?? 'active') as (typeof MODEL_STATUSES)[number],
    sunsetAt: input.sunset_at ?? null,
    replacement,
  };
}

/**
 * The entry's prices as stored: each resolution `*` or one of the model's, one row per resolution and
 * clip length, and every listed resolution priced (an entry offers only what it can quote).
 */
function pricesOf(input: CatalogEntryDto['prices'], resolutions: readonly string[], problems: FieldProblems): CatalogPrice[] {
  const rows = rateRowsOf(input, resolutions, 'prices', 'price', problems);
  const priced = new Set(rows.map((row) => row.resolution));
  const unpriced = priced.has('*') ? [] : resolutions.filter((resolution) => !priced.has(resolution));
  if (unpriced.length > 0)
    problems.add('prices', `prices must price every resolution the model offers: ${unpriced.join(', ')} has no price (or add a * row)`);
  return rows.map((row, index) => ({
    resolution: row.resolution,
    unit: row.unit,
    duration: row.duration,
    price: input[index].price,
    audioPrice: input[index].audio_price ?? null,
  }));
}

/**
 * A route's `cost` as stored, checked as `prices` are across fields: each resolution `*` or one of the
 * model's, one row per resolution and clip length; a 400 naming `routes[i].cost[j]...`.
 */
function costOf(input: readonly CatalogRouteCostDto[], resolutions: readonly string[], at: string, problems: FieldProblems): CostRow[] {
  const rows = rateRowsOf(input, resolutions, at, 'cost', problems);
  return input.map((row, index) => ({
    resolution: rows[index].resolution,
    unit: row.unit,
    ...(rows[index].duration > 0 ? { duration: rows[index].duration } : {}),
    usd: row.usd,
    ...(row.audio_usd !== undefined && row.audio_usd !== null ? { audio_usd: row.audio_usd } : {}),
  }));
}

/** Rows of a rate table (prices or a route's cost): resolution `*` or the model's, one row per resolution and clip length. */
function rateRowsOf(
  input: readonly { resolution: string; unit: 'second' | 'clip'; duration?: number | null }[],
  resolutions: readonly string[],
  at: string,
  what: string,
  problems: FieldProblems,
): { resolution: string; unit: 'second' | 'clip'; duration: number }[] {
  const seen = new Set<string>();
  return input.map((row, index) => {
    const resolution = row.resolution.trim().toLowerCase();
    const duration = row.unit === 'clip' ? (row.duration ?? 0) : 0;
    if (resolution !== '*' && resolutions.length > 0 && !resolutions.includes(resolution))
      problems.add(`${at}[${index}].resolution`, `${at}[${index}].resolution must be * or one of resolutions (${resolutions.join(', ')})`);
    const key = `${resolution}/${duration}`;
    if (seen.has(key))
      problems.add(`${at}[${index}]`, `${at}[${index}] repeats the ${what} of ${resolution}${duration ? ` at ${duration} s` : ''}`);
    seen.add(key);
    return { resolution, unit: row.unit, duration };
  });
}

/** The stored entry with a PATCH's fields over it (`null` clears an optional one; a required one is a 400). */
export function patchedInput(stored: CatalogEntry, patch: Partial<CatalogEntryDto>): CatalogEntryDto {
  for (const [name, value] of Object.entries(patch)) {
    if (value === null && !CLEARABLE.has(name)) throw AppError.invalid(`${name} cannot be cleared`, name);
  }
  if (patch.id !== undefined && patch.id !== stored.id) throw AppError.invalid('id cannot be changed (add a new model instead)', 'id');
  const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return { ...inputOf(stored), ...defined };
}

/** An entry in the admin API's shape (snake_case), as GET answers and export writes it. */
export function inputOf(entry: BuiltinEntry): CatalogEntryDto {
  return {
    id: entry.id,
    label: entry.label,
    aliases: [...entry.aliases],
    owned_by: entry.ownedBy,
    released_at: entry.releasedAt,
    modes: [...entry.modes],
    durations: Array.isArray(entry.durations)
      ? [...(entry.durations as number[])]
      : { ...(entry.durations as { min: number; max: number }) },
    default_duration: entry.defaultDuration,
    resolutions: [...entry.resolutions],
    aspect_ratios: [...entry.aspectRatios],
    audio: entry.audio,
    max_reference_images: entry.maxReferenceImages,
    prompt_max_length: entry.promptMaxLength,
    prices: entry.prices.map((price) => ({
      resolution: price.resolution,
      unit: price.unit,
      ...(price.unit === 'clip' ? { duration: price.duration } : {}),
      price: price.price,
      audio_price: price.audioPrice,
    })),
    routes: entry.routes.map((route) => ({
      platform: route.platform,
      upstream_model: route.upstreamModel,
      ...(route.options ? { options: { ...route.options } } : {}),
      ...(route.cost?.length ? { cost: route.cost.map((row) => ({ ...row })) } : {}),
    })),
    status: entry.status,
    sunset_at: entry.sunsetAt,
    replacement: entry.replacement,
  };
}
