import { bucketWindow } from './dashboard-range';

describe('dashboard buckets', () => {
  const now = Date.UTC(2026, 10, 22, 19, 30, 15);

  it('ends with the current, partial bucket, aligned to the bucket size', () => {
    const day = bucketWindow('24h', now);
    expect(day.starts).toHaveLength(24);
    expect(day.starts[23]).toBe(Date.UTC(2026, 10, 22, 19));
    expect(day.fromMs).toBe(Date.UTC(2026, 10, 21, 20));
    const hour = bucketWindow('1h', now);
    expect(hour.starts[59]).toBe(Date.UTC(2026, 10, 22, 19, 30));
    expect(bucketWindow('30d', now).starts[29]).toBe(Date.UTC(2026, 10, 22));
    expect(bucketWindow('7d', now).starts[27]).toBe(Date.UTC(2026, 10, 22, 18));
  });

  it('places times in their bucket, and -1 outside the window', () => {
    const hour = bucketWindow('1h', now);
    expect(hour.indexOf(now)).toBe(59);
    expect(hour.indexOf(hour.fromMs)).toBe(0);
    expect(hour.indexOf(hour.fromMs - 1)).toBe(-1);
    expect(hour.indexOf(now + 60_000)).toBe(-1);
  });
});
