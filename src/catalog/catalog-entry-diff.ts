import type { BuiltinEntry, CatalogEntry, CatalogPrice, ModelSource } from './catalog-entry';

/** What a merge or an import did, by model id. */
export interface CatalogChanges {
  added: string[];
  changed: string[];
  unchanged: string[];
  /** Builtin (or feed) entries the operator changed, left as the operator made them; for the feed, the operator's own entries too. */
  kept_operator_changes: string[];
}

export const noChanges = (): CatalogChanges => ({ added: [], changed: [], unchanged: [], kept_operator_changes: [] });

/** A builtin or imported entry and what to do with it against the stored one. */
export type EntryVerdict = 'add' | 'change' | 'unchanged' | 'keep';

/**
 * The one rule of a release's merge, the feed's and an import (`from`: the incoming entries'
 * source): a new model is added; a stored one equal to the incoming one is unchanged; a builtin or
 * feed entry the operator changed is kept; so is the operator's own (custom) entry against the feed;
 * anything else takes the incoming values (an import is the operator's, so it replaces a custom entry).
 */
export function verdictFor(incoming: BuiltinEntry, stored: CatalogEntry | undefined, from: ModelSource): EntryVerdict {
  if (!stored) return 'add';
  if (sameEntry(incoming, stored)) return 'unchanged';
  return keptFrom(stored, from) ? 'keep' : 'change';
}

/** Whether a stored entry is the operator's against entries from `from`: one they changed, or (against the feed) one they made. */
export function keptFrom(stored: Pick<CatalogEntry, 'source' | 'modified'>, from: ModelSource): boolean {
  if (stored.source !== 'custom') return stored.modified;
  return from === 'feed';
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
