/** The dashboard's time ranges and the bucket each is drawn with. */
export const DASHBOARD_RANGES = {
  '1h': { bucketSeconds: 60, buckets: 60 },
  '24h': { bucketSeconds: 3_600, buckets: 24 },
  '7d': { bucketSeconds: 6 * 3_600, buckets: 28 },
  '30d': { bucketSeconds: 86_400, buckets: 30 },
} as const;

export type DashboardRange = keyof typeof DASHBOARD_RANGES;
export const DASHBOARD_RANGE_NAMES = Object.keys(DASHBOARD_RANGES) as DashboardRange[];

export interface BucketWindow {
  bucketMs: number;
  /** Start of the first bucket, ms epoch (buckets are aligned to whole multiples of their size, UTC). */
  fromMs: number;
  /** Bucket starts, ms epoch; the last is the current, partial one. */
  starts: number[];
  /** Index of the bucket a time (ms) falls in, or -1 outside the window. */
  indexOf(ms: number): number;
}

export function bucketWindow(range: DashboardRange, nowMs: number): BucketWindow {
  const { bucketSeconds, buckets } = DASHBOARD_RANGES[range];
  const bucketMs = bucketSeconds * 1000;
  const current = nowMs - (nowMs % bucketMs);
  const fromMs = current - (buckets - 1) * bucketMs;
  const starts = Array.from({ length: buckets }, (_, i) => fromMs + i * bucketMs);
  return {
    bucketMs,
    fromMs,
    starts,
    indexOf: (ms) => {
      const index = Math.floor((ms - fromMs) / bucketMs);
      return index >= 0 && index < buckets ? index : -1;
    },
  };
}
