import { KeyedWorkPool } from './keyed-work-pool';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedWorkPool', () => {
  it('bounds the overall and the per-key concurrency', async () => {
    let running = 0;
    let peak = 0;
    const perKey = new Map<number, number>();
    const peakPerKey = new Map<number, number>();
    const pool = new KeyedWorkPool(
      5,
      (key) => (key === 1 ? 2 : 10),
      (error) => {
        throw error;
      },
    );
    for (let i = 0; i < 40; i++) {
      const key = i % 2;
      pool.push(key, async () => {
        running++;
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
        peak = Math.max(peak, running);
        peakPerKey.set(key, Math.max(peakPerKey.get(key) ?? 0, perKey.get(key)!));
        await tick();
        running--;
        perKey.set(key, perKey.get(key)! - 1);
      });
    }
    await pool.drain();
    expect(peak).toBe(5);
    expect(peakPerKey.get(1)).toBe(2);
    expect(pool.size).toBe(0);
  });

  it('reports job errors without stopping the other jobs', async () => {
    const errors: unknown[] = [];
    const done: number[] = [];
    const pool = new KeyedWorkPool(
      2,
      () => 2,
      (error) => errors.push(error),
    );
    pool.push(0, async () => {
      throw new Error('boom');
    });
    pool.push(0, async () => void done.push(1));
    await pool.drain();
    expect(errors).toHaveLength(1);
    expect(done).toEqual([1]);
  });

  it('whenBelow waits until the backlog shrinks', async () => {
    const pool = new KeyedWorkPool(
      1,
      () => 1,
      () => undefined,
    );
    let release!: () => void;
    pool.push(0, () => new Promise<void>((resolve) => (release = resolve)));
    pool.push(0, async () => undefined);
    let resolved = false;
    void pool.whenBelow(1).then(() => (resolved = true));
    await tick();
    expect(resolved).toBe(false);
    release();
    await pool.drain();
    expect(resolved).toBe(true);
  });
});
