import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('grows exponentially with the failures and never goes below the interval', () => {
    expect(backoffDelay(1000, 1, () => 1)).toBe(2000);
    expect(backoffDelay(1000, 3, () => 1)).toBe(8000);
    expect(backoffDelay(1000, 3, () => 0)).toBe(1000);
  });

  it('is capped at five minutes', () => {
    expect(backoffDelay(4000, 30, () => 1)).toBe(300_000);
  });

  it('spreads retries (jitter)', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(1000, 5)));
    expect(delays.size).toBeGreaterThan(10);
  });
});
