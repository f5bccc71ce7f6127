import { aliasCollision, isRetiredAt, namesOf } from './catalog-entry';

const entry = (id: string, aliases: string[] = []) => ({ id, aliases });

describe('aliasCollision: each name answers to one entry', () => {
  const catalog = [entry('kling-v2-5-turbo', ['fal-kling-v2-5-turbo-pro']), entry('veo3.1', ['fal-veo-3-1']), entry('sora-2')];

  it.each([
    ['a new alias that is another entry id', entry('mine', ['sora-2']), 'sora-2'],
    ["a new alias that is another entry's alias", entry('mine', ['fal-veo-3-1']), 'fal-veo-3-1'],
    ['an alias named twice', entry('mine', ['old', 'old']), 'old'],
    ['an alias that is its own id', entry('mine', ['mine']), 'mine'],
    ["a new id that is another entry's alias", entry('fal-kling-v2-5-turbo-pro'), 'fal-kling-v2-5-turbo-pro'],
  ])('%s: the name', (_, incoming, taken) => {
    expect(aliasCollision(incoming, catalog)).toBe(taken);
  });

  it('an entry keeps its own aliases when it is written again (the stored copy of itself is no collision); fresh names are free', () => {
    expect(aliasCollision(entry('kling-v2-5-turbo', ['fal-kling-v2-5-turbo-pro', 'replicate-x']), catalog)).toBeNull();
    expect(aliasCollision(entry('mine', ['mine-old']), catalog)).toBeNull();
    expect(namesOf(catalog[0])).toEqual(['kling-v2-5-turbo', 'fal-kling-v2-5-turbo-pro']);
  });
});

describe('isRetiredAt: the lifecycle by date', () => {
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
  it('deprecated works until its sunset and is retired from it; retired always; active never', () => {
    const deprecated = { status: 'deprecated' as const, sunsetAt: day('2026-09-24') / 1000 };
    expect(isRetiredAt(deprecated, day('2026-09-24') - 1)).toBe(false);
    expect(isRetiredAt(deprecated, day('2026-09-24'))).toBe(true);
    expect(isRetiredAt({ status: 'deprecated', sunsetAt: null }, day('2099-01-01'))).toBe(false);
    expect(isRetiredAt({ status: 'retired', sunsetAt: null }, 0)).toBe(true);
    expect(isRetiredAt({ status: 'active', sunsetAt: day('2020-01-01') / 1000 }, day('2026-12-02'))).toBe(false);
  });
});
