import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_CATALOG_PATH, builtinCatalogFile, catalogFileText } from './builtin-catalog-file';
import { FAMILIES } from './family-registry';

describe(`${BUILTIN_CATALOG_PATH}: the builtin catalog published in the feed's format`, () => {
  it('is what `npm run catalog:export` writes for this release, byte for byte (run it again after changing a builtin entry)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', BUILTIN_CATALOG_PATH), 'utf8');
    const exported = catalogFileText(builtinCatalogFile(FAMILIES));
    // A first difference by model reads better than a 50 KB string diff.
    expect(JSON.parse(committed)).toEqual(JSON.parse(exported));
    expect(committed).toBe(exported);
  });
});
