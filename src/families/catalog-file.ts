import { aliasCollision, type BuiltinEntry, type CatalogEntry } from '../catalog/catalog-entry';
import { CATALOG_FILE_LIMIT_BYTES, type CatalogEntryDto } from '../catalog/catalog-entry.dto';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { entryFromInput, inputOf } from './catalog-entry-input';
import type { FamilyDefinition } from './family';

/** A catalog file, `{version: 1, models: [...]}`: what export writes, import and the catalog feed read. */
export interface CatalogFile {
  version: 1;
  models: CatalogEntryDto[];
}

export const catalogFileOf = (entries: readonly BuiltinEntry[]): CatalogFile => ({ version: 1, models: entries.map(inputOf) });

/** How a file's names are checked: against the whole catalog as it would be (an import), or within the file (the feed, whose merge leaves the operator's names to them). */
export type NamesCheck = 'catalog' | 'file';

/**
 * A catalog file's models (each already checked field by field, as POST /api/admin/models checks
 * one) as entries, with the rules across fields and across entries: each id once, a replacement in
 * the file or the catalog, names free, the catalog still exportable; the first problem is a 400
 * naming `models[i].<field>`.
 */
export function entriesOfFile(
  models: readonly CatalogEntryDto[],
  families: readonly FamilyDefinition[],
  stored: readonly CatalogEntry[],
  names: NamesCheck,
): BuiltinEntry[] {
  const ids = new Set(models.map((model) => model.id));
  if (ids.size !== models.length) throw AppError.invalid('models: each id may appear once', 'models');
  const storedIds = new Set(stored.map((entry) => entry.id));
  const entries = models.map((model, index) =>
    entryFromInput(
      model,
      families,
      (id) => ids.has(id) || storedIds.has(id),
      (field) => `models[${index}].${field}`,
    ),
  );
  assertNamesFree(entries, names === 'catalog' ? stored : [], (index) => `models[${index}].`);
  assertExportFits(entries, stored);
  return entries;
}

/**
 * Each name answers to one entry: an alias (or a new id) that is another entry's id or alias, in
 * the catalog as it would be after the write, is a 400 naming it.
 */
export function assertNamesFree(incoming: readonly BuiltinEntry[], stored: readonly CatalogEntry[], at = (_index: number) => ''): void {
  const replaced = new Set(incoming.map((entry) => entry.id));
  const others = [...stored.filter((entry) => !replaced.has(entry.id)), ...incoming];
  incoming.forEach((entry, index) => {
    const taken = aliasCollision(entry, others);
    if (taken === null) return;
    if (taken === entry.id) throw AppError.invalid(`id: ${taken} is another model's alias`, `${at(index)}id`);
    throw AppError.invalid(`aliases: ${taken} is already a model id or alias`, `${at(index)}aliases`);
  });
}

/** The catalog with `incoming` written must export within what an import reads: a 409 otherwise, nothing written. */
export function assertExportFits(incoming: readonly BuiltinEntry[], stored: readonly CatalogEntry[]): void {
  const replaced = new Set(incoming.map((entry) => entry.id));
  const after = [...stored.filter((entry) => !replaced.has(entry.id)), ...incoming];
  const bytes = Buffer.byteLength(JSON.stringify(catalogFileOf(after)), 'utf8');
  if (bytes > CATALOG_FILE_LIMIT_BYTES)
    throw new AppError(
      ErrorCode.Conflict,
      `the catalog would export ${bytes} bytes, over the ${CATALOG_FILE_LIMIT_BYTES} an import reads: delete or retire models first`,
    );
}
