import { LATENCY_BUCKET_COLUMNS, latencyBucketOf, percentileFromBuckets } from './upstream-latency-buckets';

describe('upstream latency buckets', () => {
  it('names one column per bound plus the slower rest, matching the migration', () => {
    expect(LATENCY_BUCKET_COLUMNS).toEqual([
      'lat_le_100',
      'lat_le_250',
      'lat_le_500',
      'lat_le_1000',
      'lat_le_2500',
      'lat_le_5000',
      'lat_le_10000',
      'lat_gt_10000',
    ]);
  });

  it('puts a call in the first bucket whose bound it does not pass', () => {
    expect([0, 100, 101, 999, 1000, 1001, 10_000, 10_001, 60_000].map(latencyBucketOf)).toEqual([0, 0, 1, 3, 3, 4, 6, 7, 7]);
  });

  it('reads the p95 as the bound of the bucket where 95 % of calls are reached', () => {
    expect(percentileFromBuckets([0, 0, 0, 0, 0, 0, 0, 0])).toBeNull();
    expect(percentileFromBuckets([95, 5, 0, 0, 0, 0, 0, 0])).toBe(100);
    expect(percentileFromBuckets([94, 6, 0, 0, 0, 0, 0, 0])).toBe(250);
    expect(percentileFromBuckets([0, 0, 0, 0, 0, 0, 1, 99])).toBe(10_000);
  });
});
