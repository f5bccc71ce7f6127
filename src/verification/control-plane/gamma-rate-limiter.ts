/** A provider rate limit: at most `limit` calls in any `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/**
 * Per-key sliding-window limiter with reservations: `reserve` books the earliest moment a call
 * may go out so that no window of `windowMs` ever holds more than `limit` calls, and says how
 * long to wait for it. (A token bucket with a one-second burst would let twice the rate through
 * within one second.) Used to stay under the provider's per-action limits; small enough that a
 * dependency would cost more than it saves, and it takes the gateway's clock.
 */
export class SlidingWindowLimiter {
  /** Booked send times per key, ascending. */
  private readonly booked = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds to wait before the call may go out (0 = now), or null when that exceeds `maxWaitMs` (nothing booked). */
  reserve(key: string, { limit, windowMs }: RateLimit, maxWaitMs: number): number | null {
    const now = this.now();
    // Calls a full window ago no longer constrain anything from now on.
    const times = (this.booked.get(key) ?? []).filter((at) => at > now - windowMs);
    const at = times.length < limit ? now : Math.max(now, times[times.length - limit] + windowMs);
    const waitMs = at - now;
    if (waitMs > maxWaitMs) {
      this.booked.set(key, times);
      return null;
    }
    times.push(at);
    this.booked.set(key, times);
    return waitMs;
  }
}
