/**
 * The late watch's pace (contract, "The deadline reads the provider"): a task given up at its
 * deadline that its provider may still be running is read at most once every 10 minutes, for 24
 * hours after the deadline, only to learn how it ended.
 */
export const LATE_READ_INTERVAL_MS = 10 * 60_000;
export const LATE_WATCH_MS = 24 * 3600_000;

/** The first read of a task given up at `givenUpAt`. */
export const firstLateRead = (givenUpAt: number): number => givenUpAt + LATE_READ_INTERVAL_MS;

/** The read after one at `now`; null once it would fall past the watch (the task is then read no more). */
export function nextLateRead(givenUpAt: number, now: number): number | null {
  const next = now + LATE_READ_INTERVAL_MS;
  return next <= givenUpAt + LATE_WATCH_MS ? next : null;
}
