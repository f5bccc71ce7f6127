/** Upper bounds (ms) of the upstream latency histogram kept per minute and channel; the last bucket is everything slower. */
export const LATENCY_BOUNDS_MS = [100, 250, 500, 1000, 2500, 5000, 10000] as const;

/** The histogram's columns in `upstream_call_stats`, one per bound and one for the slower rest. */
export const LATENCY_BUCKET_COLUMNS = [
  ...LATENCY_BOUNDS_MS.map((bound) => `lat_le_${bound}`),
  `lat_gt_${LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]}`,
];

/** Index of the bucket a call of `ms` falls in. */
export const latencyBucketOf = (ms: number): number => {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
};

/**
 * The 95th percentile read off summed histogram counts: the upper bound of the bucket where 95 % of
 * the calls are reached (the slowest bucket reports its lower bound, the best a histogram knows).
 * Null without calls.
 */
export function percentileFromBuckets(counts: number[], quantile = 0.95): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const target = Math.ceil(total * quantile);
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen >= target) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)];
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}
