/** Waits after each failed attempt (the contract's "about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h"); then the event is given up at that endpoint. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];

/** An endpoint whose attempts have failed for this long (no success in between) is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;

/**
 * When the attempt after failed attempt number `attempt` (1-based) is due, or null when there is
 * none. Up to 10% later than the schedule, so many endpoints' retries do not come in step.
 */
export function nextAttemptAt(attempt: number, now: number, random: () => number = Math.random): number | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : now + Math.round(delay * (1 + random() / 10));
}
