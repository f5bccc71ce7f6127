import { TokenBucketLimiter } from './gamma-rate-limiter';

describe('TokenBucketLimiter', () => {
  it('lets a burst of one second through, then spaces calls at the rate', () => {
    let now = 1_000_000;
    const limiter = new TokenBucketLimiter(() => now);
    expect([1, 2, 3].map(() => limiter.reserve('GetVisualValidateResult', 3, 1000))).toEqual([0, 0, 0]);
    expect(limiter.reserve('GetVisualValidateResult', 3, 1000)).toBe(334);
    expect(limiter.reserve('GetVisualValidateResult', 3, 1000)).toBe(667);
    // Another action has its own bucket.
    expect(limiter.reserve('GetAsset', 100, 1000)).toBe(0);
    now += 2000;
    expect(limiter.reserve('GetVisualValidateResult', 3, 1000)).toBe(0);
  });

  it('refuses (without reserving) when the wait would be too long', () => {
    const now = 5_000;
    const limiter = new TokenBucketLimiter(() => now);
    expect(limiter.reserve('k', 1, 500)).toBe(0);
    expect(limiter.reserve('k', 1, 500)).toBeNull();
    expect(limiter.reserve('k', 1, 1000)).toBe(1000);
  });
});
