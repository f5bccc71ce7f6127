import type { BuiltinEntry } from '../../src/catalog/catalog-entry';
import { CatalogService } from '../../src/catalog/catalog.service';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

const entry = (id: string): BuiltinEntry => ({
  id,
  label: null,
  aliases: [],
  ownedBy: null,
  releasedAt: null,
  modes: ['text-to-video'],
  durations: [5],
  defaultDuration: 5,
  resolutions: ['720p'],
  aspectRatios: [],
  audio: 'none',
  maxReferenceImages: null,
  promptMaxLength: null,
  prices: [{ resolution: '720p', unit: 'second', duration: 0, price: 100, audioPrice: null }],
  routes: [{ platform: 'fake', upstreamModel: id }],
  status: 'active',
  sunsetAt: null,
  replacement: null,
});

describe('CatalogService (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  let catalog: CatalogService;
  beforeAll(async () => {
    t = await createServiceTestModule();
    catalog = t.module.get(CatalogService);
  });
  afterAll(() => t.close());

  it('an import applies all or nothing: a write that fails on its fourth entry leaves none of the four', async () => {
    const file = ['imp-1', 'imp-2', 'imp-3', 'imp-4'].map(entry);
    expect(await catalog.importEntries(file, true)).toMatchObject({ added: ['imp-1', 'imp-2', 'imp-3', 'imp-4'] });
    const replacePrices = t.pricing.replacePrices.bind(t.pricing);
    let calls = 0;
    const failing = jest.spyOn(t.pricing, 'replacePrices').mockImplementation(async (manager, model, prices) => {
      if (++calls === 4) throw new Error('the database refused the fourth entry');
      return replacePrices(manager, model, prices);
    });
    await expect(catalog.importEntries(file, false)).rejects.toThrow('the database refused the fourth entry');
    failing.mockRestore();
    const { byId } = await catalog.snapshot();
    expect(file.filter(({ id }) => byId.has(id))).toEqual([]);
    expect((await t.pricing.listRules()).filter((rule) => rule.model.startsWith('imp-'))).toEqual([]);
    // Nothing refused it: all four arrive.
    expect(await catalog.importEntries(file, false)).toMatchObject({ added: ['imp-1', 'imp-2', 'imp-3', 'imp-4'] });
    expect((await catalog.snapshot()).byId.has('imp-4')).toBe(true);
  });
});
