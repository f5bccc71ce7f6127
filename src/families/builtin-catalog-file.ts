import { type CatalogFile, catalogFileOf } from './catalog-file';
import type { FamilyDefinition } from './family';
import { builtinCatalog } from './shared/builtin-entry';

/** Where the repository keeps this release's builtin catalog as a feed document (`npm run catalog:export` writes it). */
export const BUILTIN_CATALOG_PATH = 'catalog/builtin-catalog.json';

/** This release's builtin catalog in the feed's format: what an operator may host as their own CATALOG_FEED_URL. */
export function builtinCatalogFile(families: readonly FamilyDefinition[]): CatalogFile {
  return catalogFileOf(builtinCatalog(families.map((family) => family.builtinEntries)));
}

/** The file's text, byte for byte as committed (a feed's signature is over these bytes). */
export const catalogFileText = (file: CatalogFile): string => `${JSON.stringify(file, null, 2)}\n`;
