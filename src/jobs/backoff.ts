const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Delay before the next try after `failures` failures in a row (a poll, a delivery): exponential in
 * the interval, capped at five minutes, with full jitter so many failing items do not retry in step.
 */
export function backoffDelay(intervalMs: number, failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.min(failures, 16));
  return Math.max(intervalMs, Math.floor(intervalMs + random() * (ceiling - intervalMs)));
}
