import { SlidingWindowLimiter } from './gamma-rate-limiter';

const perSecond = (limit: number) => ({ limit, windowMs: 1000 });

/** How many of `times` fall into the busiest window of `windowMs`. */
const busiestWindow = (times: number[], windowMs: number) => Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));

describe('SlidingWindowLimiter', () => {
  it('never lets more than the limit into any window, and books the rest at the earliest allowed moment', () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(() => now);
    const waits = Array.from({ length: 7 }, () => limiter.reserve('GetVisualValidateResult', perSecond(3), 5000));
    expect(waits).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
    expect(busiestWindow(waits.map((wait) => now + wait!), 1000)).toBe(3);
    // Another key has its own window.
    expect(limiter.reserve('GetAsset', perSecond(100), 1000)).toBe(0);
    now += 3000;
    expect(limiter.reserve('GetVisualValidateResult', perSecond(3), 1000)).toBe(0);
  });

  it('keeps to the limit when calls trickle in over time', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(() => now);
    const sent: number[] = [];
    for (let i = 0; i < 40; i++) {
      now += 150;
      sent.push(now + limiter.reserve('k', perSecond(3), 10_000)!);
    }
    expect(busiestWindow(sent, 1000)).toBe(3);
  });

  it('refuses (without booking) when the wait would be too long', () => {
    const now = 5_000;
    const limiter = new SlidingWindowLimiter(() => now);
    expect(limiter.reserve('k', perSecond(1), 500)).toBe(0);
    expect(limiter.reserve('k', perSecond(1), 500)).toBeNull();
    expect(limiter.reserve('k', perSecond(1), 1000)).toBe(1000);
  });

  it('counts per-minute limits over the minute', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(() => now);
    const perMinute = { limit: 300, windowMs: 60_000 };
    for (let i = 0; i < 300; i++) expect(limiter.reserve('CreateAsset', perMinute, 2000)).toBe(0);
    expect(limiter.reserve('CreateAsset', perMinute, 2000)).toBeNull();
    now += 60_000;
    expect(limiter.reserve('CreateAsset', perMinute, 2000)).toBe(0);
  });
});
