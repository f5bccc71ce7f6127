import { aliasCollision, isRetiredAt } from '../../catalog/catalog-entry';
import { FAMILIES } from '../family-registry';
import { builtinCatalog } from './builtin-entry';

/** Today, as the product contract dates it. */
const TODAY = Date.parse('2026-12-02T00:00:00Z');
const catalog = builtinCatalog(FAMILIES.map((family) => family.builtinEntries));
const byId = new Map(catalog.map((entry) => [entry.id, entry]));
const sunset = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

describe('the builtin catalog: one entry per model', () => {
  it('each name (id or alias) answers to one entry; every entry has a label and a maker', () => {
    for (const entry of catalog) {
      expect({ id: entry.id, taken: aliasCollision(entry, catalog) }).toEqual({ id: entry.id, taken: null });
      expect({ id: entry.id, label: entry.label, owned: !!entry.ownedBy }).toEqual({
        id: entry.id,
        label: expect.any(String),
        owned: true,
      });
    }
  });

  it("Kling 2.5 Turbo is one entry routed on kling, fal and replicate, Kling's capabilities and prices, the former ids as aliases", () => {
    const turbo = byId.get('kling-v2-5-turbo')!;
    expect(turbo.routes.map((route) => route.platform)).toEqual(['kling', 'fal', 'replicate']);
    expect(turbo.aliases).toEqual(['fal-kling-v2-5-turbo-pro', 'replicate-kling-v2-5-turbo-pro']);
    expect(turbo).toMatchObject({ ownedBy: 'kling', resolutions: ['720p', '1080p'] });
    expect(turbo.prices.map(({ resolution, price }) => [resolution, price])).toEqual([
      ['720p', 420],
      ['1080p', 700],
    ]);
    // The hosted Pro endpoints make 1080p only: the route says so, so 720p is never billed and made there at 1080p.
    expect(turbo.routes.slice(1).map((route) => route.options?.resolution)).toEqual(['1080p', '1080p']);
    expect(byId.has('fal-kling-v2-5-turbo-pro')).toBe(false);
  });

  it('Veo 3.1 is one entry on Runway and fal (fal-veo-3-1 an alias), made by Google', () => {
    const veo = byId.get('veo3.1')!;
    expect(veo.routes.map((route) => route.platform)).toEqual(['runway', 'fal']);
    expect(veo).toMatchObject({ ownedBy: 'google', aliases: ['fal-veo-3-1'] });
  });

  it.each([
    ['sora-2', '2026-09-24', null],
    ['sora-2-pro', '2026-09-24', null],
    ['veo-3.0-generate-001', '2026-06-30', null],
    ['veo-3.0-fast-generate-001', '2026-06-30', null],
    ['veo-3.1-generate-preview', '2026-10-22', 'veo3.1'],
    ['veo-3.1-fast-generate-preview', '2026-10-22', 'veo3.1_fast'],
  ])('%s is retired since %s (replacement %s, where another route serves the model)', (id, date, replacement) => {
    const entry = byId.get(id)!;
    expect(entry).toMatchObject({ status: 'retired', sunsetAt: sunset(date), replacement });
    expect(isRetiredAt(entry, TODAY)).toBe(true);
    if (replacement) expect(isRetiredAt(byId.get(replacement)!, TODAY)).toBe(false);
  });
});
