import type { CatalogEntry } from '../catalog/catalog-entry';
import { FieldProblems } from '../common/errors/field-problems';

/**
 * A price (PUT /api/admin/prices) must be for a model of the catalog, by its id, and for `*` or one of
 * the resolutions the model lists: a 400 naming each bad field, so that no price sits where no quote reads it.
 */
export function assertPriceTarget(entryOf: (name: string) => CatalogEntry | undefined, body: { model: string; resolution: string }): void {
  const problems = new FieldProblems();
  const entry = entryOf(body.model);
  const resolution = body.resolution.trim().toLowerCase();
  if (!entry) problems.add('model', `model ${body.model} is not in the catalog (add it on the Models page first)`);
  else if (entry.id !== body.model) problems.add('model', `model ${body.model} is an alias: price its entry, ${entry.id}`);
  else if (resolution !== '*' && entry.resolutions.length > 0 && !entry.resolutions.includes(resolution))
    problems.add('resolution', `resolution must be * or one of ${entry.id}'s resolutions (${entry.resolutions.join(', ')})`);
  problems.throwIfAny();
}

/**
 * Whether deleting `rule` leaves a resolution its model lists without a price: the resolution, or null.
 * (The model then offers it and its quote fails; change the model's resolutions first.)
 */
export function resolutionLeftUnpriced(
  entry: Pick<CatalogEntry, 'resolutions' | 'prices'> | undefined,
  rule: { resolution: string; duration: number },
): string | null {
  if (!entry) return null;
  const others = entry.prices.filter((price) => !(price.resolution === rule.resolution && price.duration === rule.duration));
  const priced = new Set(others.map((price) => price.resolution));
  if (priced.has('*')) return null;
  return (
    entry.resolutions.find((resolution) => !priced.has(resolution) && (rule.resolution === '*' || rule.resolution === resolution)) ?? null
  );
}
