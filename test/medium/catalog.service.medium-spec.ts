import type { BuiltinEntry } from '../../src/catalog/catalog-entry';
import { CatalogRepository } from '../../src/catalog/catalog.repository';
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

  describe("the feed's merge", () => {
    const priced = (id: string, price: number): BuiltinEntry => ({ ...entry(id), prices: [{ ...entry(id).prices[0], price }] });
    const stored = async (id: string) => (await catalog.snapshot()).byId.get(id);

    it('adds feed entries; run twice, or twice at once, it writes the same catalog and then finds nothing to change', async () => {
      const feed = [priced('feed-a', 300), priced('feed-b', 400)];
      const [first, second] = await Promise.all([catalog.mergeFeed(feed), catalog.mergeFeed(feed)]);
      // Both read before either wrote: each says added, one insert won and the other was skipped.
      expect(first.added).toEqual(['feed-a', 'feed-b']);
      expect(second.added).toEqual(['feed-a', 'feed-b']);
      expect(await stored('feed-a')).toMatchObject({ source: 'feed', modified: false, prices: [{ price: 300 }] });
      expect((await t.pricing.listRules()).filter((rule) => rule.model === 'feed-a')).toHaveLength(1);
      expect(await catalog.mergeFeed(feed)).toEqual({ added: [], changed: [], unchanged: ['feed-a', 'feed-b'], kept_operator_changes: [] });
    });

    it("keeps the operator's changes and own entries; changes the rest", async () => {
      await catalog.create(priced('mine', 100));
      await catalog.replace((await stored('feed-a'))!, priced('feed-a', 350));
      expect(await stored('feed-a')).toMatchObject({ source: 'feed', modified: true });
      const applied = await catalog.mergeFeed([priced('feed-a', 310), priced('feed-b', 410), priced('mine', 999)]);
      expect(applied).toEqual({ added: [], changed: ['feed-b'], unchanged: [], kept_operator_changes: ['feed-a', 'mine'] });
      expect((await stored('feed-a'))!.prices[0].price).toBe(350);
      expect((await stored('feed-b'))!.prices[0].price).toBe(410);
      expect(await stored('mine')).toMatchObject({ source: 'custom', prices: [{ price: 100 }] });
    });

    it('leaves alone an entry the operator changes between its read and its write', async () => {
      const models = t.module.get(CatalogRepository);
      const originOf = models.originOf.bind(models);
      // The operator's PATCH lands just as the merge is about to write feed-b.
      const spy = jest.spyOn(models, 'originOf').mockImplementationOnce(async (manager, id) => {
        const origin = await originOf(manager, id);
        return origin && { ...origin, modified: true };
      });
      expect((await catalog.mergeFeed([priced('feed-b', 420)])).changed).toEqual(['feed-b']);
      spy.mockRestore();
      expect((await stored('feed-b'))!.prices[0].price).toBe(410);
    });

    it("a release's merge leaves the feed's entries to the feed while one is configured, and takes them back when none is", async () => {
      expect(await catalog.mergeBuiltins([priced('feed-b', 5)], true)).toEqual(expect.objectContaining({ changed: [], unchanged: [] }));
      expect((await stored('feed-b'))!.prices[0].price).toBe(410);
      expect((await catalog.mergeBuiltins([priced('feed-b', 5)], false)).changed).toEqual(['feed-b']);
      expect(await stored('feed-b')).toMatchObject({ source: 'builtin', prices: [{ price: 5 }] });
    });
  });
});
