import { ReadThroughCache } from './read-through-cache';

describe('ReadThroughCache', () => {
  let now = 0;
  const cache = () => new ReadThroughCache<number>(1000, () => now);

  it('loads once per lifetime, and again once it is over', async () => {
    const c = cache();
    let loads = 0;
    const load = async () => ++loads;
    now = 0;
    expect(await c.get('k', load)).toBe(1);
    now = 999;
    expect(await c.get('k', load)).toBe(1);
    now = 1000;
    expect(await c.get('k', load)).toBe(2);
  });

  it('concurrent misses share one load; keys are separate', async () => {
    const c = cache();
    let loads = 0;
    const load = () => new Promise<number>((resolve) => setTimeout(() => resolve(++loads), 5));
    const [a, b] = await Promise.all([c.get('k', load), c.get('k', load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(await c.get('other', load)).toBe(2);
  });

  it('clear makes the next read load again, even while a load was under way', async () => {
    const c = cache();
    let loads = 0;
    let release!: () => void;
    const slow = () => new Promise<number>((resolve) => (release = () => resolve(++loads)));
    const pending = c.get('k', slow);
    c.clear();
    release();
    expect(await pending).toBe(1);
    expect(await c.get('k', async () => ++loads)).toBe(2);
  });

  it('does not keep a failed load', async () => {
    const c = cache();
    await expect(c.get('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await c.get('k', async () => 7)).toBe(7);
  });
});
