import type { BuiltinEntry, CatalogEntry, CatalogPrice } from './catalog-entry';

/** What a merge or an import did, by model id. */
export interface CatalogChanges {
  added: string[];
  changed: string[];
  unchanged: string[];
  /** Builtin entries the operator changed, left as the operator made them. */
  kept_operator_changes: string[];
}

export const noChanges = (): CatalogChanges => ({ added: [], changed: [], unchanged: [], kept_operator_changes: [] });

/** A builtin or imported entry and what to do with it against the stored one. */
export type EntryVerdict = 'add' | 'change' | 'unchanged' | 'keep';

/**
 * The one rule of a release's merge and of an import: a new model is added; a stored one equal to
 * the incoming one is unchanged; a builtin the operator changed is kept; anything else takes the
 * incoming values (a custom entry is the operator's own, so an import of it replaces it).
 */
export function verdictFor(incoming: BuiltinEntry, stored: CatalogEntry | undefined): EntryVerdict {
  if (!stored) return 'add';
  if (sameEntry(incoming, stored)) return 'unchanged';
  if (stored.source === 'builtin' && stored.modified) return 'keep';
  return 'change';
}

export function record(changes: CatalogChanges, verdict: EntryVerdict, id: string): void {
  const list = { add: changes.added, change: changes.changed, unchanged: changes.unchanged, keep: changes.kept_operator_changes }[verdict];
  list.push(id);
}

/** Equal in everything the operator sets (not `source` nor `modified`); prices in any order. */
export function sameEntry(a: BuiltinEntry, b: BuiltinEntry): boolean {
  return canonical(a) === canonical(b);
}

export function samePrices(a: readonly CatalogPrice[], b: readonly CatalogPrice[]): boolean {
  return stableJson(sortedPrices(a)) === stableJson(sortedPrices(b));
}

function canonical(entry: BuiltinEntry): string {
  const { id, label, modes, durations, defaultDuration, resolutions, aspectRatios, audio, maxReferenceImages, promptMaxLength } = entry;
  return stableJson({
    id,
    label,
    aliases: entry.aliases,
    ownedBy: entry.ownedBy,
    releasedAt: entry.releasedAt,
    modes,
    durations,
    defaultDuration,
    resolutions,
    aspectRatios,
    audio,
    maxReferenceImages,
    promptMaxLength,
    prices: sortedPrices(entry.prices),
    routes: entry.routes.map((route) => ({
      platform: route.platform,
      upstreamModel: route.upstreamModel,
      options: route.options ?? {},
      cost: route.cost ?? [],
    })),
    status: entry.status,
    sunsetAt: entry.sunsetAt,
    replacement: entry.replacement,
  });
}

function sortedPrices(prices: readonly CatalogPrice[]): CatalogPrice[] {
  return [...prices]
    .map(({ resolution, unit, duration, price, audioPrice }) => ({ resolution, unit, duration, price, audioPrice }))
    .sort((a, b) => a.resolution.localeCompare(b.resolution) || a.duration - b.duration || a.unit.localeCompare(b.unit));
}

/** JSON with every object's keys sorted, so that equal values from code and from the database compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
