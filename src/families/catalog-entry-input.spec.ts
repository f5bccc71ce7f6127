import { CatalogEntryDto } from '../catalog/catalog-entry.dto';
import { MODEL_MODES } from '../catalog/catalog-entry';
import { RequestValidationPipe } from '../common/http/validation';
import { entryFromInput, inputOf } from './catalog-entry-input';
import type { FamilyDefinition } from './family';
import { FAMILIES } from './family-registry';

const builtins = FAMILIES.flatMap((family) => family.builtinEntries);
const ids = new Set(builtins.map((entry) => entry.id));

describe('entryFromInput', () => {
  it('every builtin entry is one the admin API takes as it is (an export moves between databases)', async () => {
    for (const entry of builtins) {
      const input = (await new RequestValidationPipe().transform(JSON.parse(JSON.stringify(inputOf(entry))), {
        type: 'body',
        metatype: CatalogEntryDto,
      })) as CatalogEntryDto;
      expect(entryFromInput(input, FAMILIES, (id) => ids.has(id))).toEqual(entry);
    }
  });

  it("refuses routes whose JSON is over the smallest database's column (MariaDB TEXT): a 400 naming routes", () => {
    const input = inputOf(builtins[0]);
    // Each upstream id within its 256 characters, but in 4-byte characters, on every platform and mode.
    const upstream = Object.fromEntries(MODEL_MODES.map((mode) => [mode, '\u{1F3A5}'.repeat(256)]));
    const platforms = Array.from({ length: 12 }, (_, index) => ({ platform: `p${index}` }) as unknown as FamilyDefinition);
    const routes = platforms.map(({ platform }) => ({ platform, upstream_model: upstream }));
    expect(() => entryFromInput({ ...input, routes }, platforms, () => true)).toThrow(
      expect.objectContaining({ message: 'routes must be at most 60000 bytes as JSON', options: { param: 'routes' } }),
    );
    expect(() => entryFromInput({ ...input, routes: routes.slice(0, 2) }, platforms, () => true)).not.toThrow();
  });
});
