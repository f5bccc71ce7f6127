/**
 * Per-key token bucket with reservations: `acquire` takes a token now or reserves the next one
 * and says how long to wait for it. Used to stay under the provider's per-action QPS limits.
 * (Small enough that a dependency would cost more than it saves.)
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds to wait before the call may go out (0 = now), or null when that exceeds `maxWaitMs` (nothing reserved). */
  reserve(key: string, perSecond: number, maxWaitMs: number): number | null {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: perSecond, at: now };
    // Refill since the last look, never above one second's worth (the burst).
    const tokens = Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    const waitMs = tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / perSecond) * 1000);
    if (waitMs > maxWaitMs) {
      this.buckets.set(key, { tokens, at: now });
      return null;
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return waitMs;
  }
}
